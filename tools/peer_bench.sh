#!/usr/bin/env bash
# Side-by-side CPU benchmark against libmpdata++ (igfuw/libmpdataxx): the same grid, steps and thread
# count, the two codes alternating, one table row and one ratio per case and round.
#
#   tools/peer_bench.sh setup SRC   copy libmpdata++ into tools/peer/libmpdataxx (git-ignored; its code
#                                   is never committed). SRC: a checkout of igfuw/libmpdataxx, or a git
#                                   directory (bare or not) of it, whose HEAD is exported. This script
#                                   does not download anything: clone it first, e.g.
#                                   git clone https://github.com/igfuw/libmpdataxx /tmp/libmpdataxx
#   tools/peer_bench.sh build       compile tools/peer_driver/mpdata_peer.cpp (our driver, libmpdata++'s
#                                   public API) into build-peer/mpdata_peer: g++ -O3 -march=native
#                                   -fopenmp -DNDEBUG (PEER_CXXFLAGS replaces these). Needs the Debian
#                                   packages libblitz0-dev libboost-dev libboost-timer-dev
#                                   libboost-chrono-dev (`build` says so when they are missing).
#   tools/peer_bench.sh run [options]   (build first if the driver is missing or older than its source)
#       --rounds N       alternating rounds (default 3); odd rounds run taskdycore first, even the peer
#       --grids "G ..."  MPDATA grids (default "64x64x64 128x128x64")
#       --steps N        steps per timed run (default 100); --repeat N timed runs, median (default 3)
#       --threads N      STARPU_NCPU for taskdycore, OMP_NUM_THREADS for libmpdata++ (default 2)
#       --tiles TXxTY    taskdycore's tiles (default 2x2)
#       --cases "..."    MPDATA variants among fct, nofct, iga (iga + FCT) (default all three)
#       --tgv on|off     also the Taylor-Green step (default on); --tgv-steps N (default 20)
#       --tgv-tiles TXxTY  taskdycore's tiles for it (default 1x2: on 2 workers the spectral solve's
#                        stages then share the work, 22.9 against 16.9 ms/step at 1x1 and 1x2; 2x2: 20.2)
#       --out DIR        raw outputs and results.tsv (default /tmp/peer-bench-DATE)
#   tools/peer_bench.sh summary DIR/results.tsv...   ranges over the rounds of one or more runs
#   tools/peer_bench.sh             same as `run` with the defaults
#
# taskdycore: $TASKDYCORE, else build/taskdycore of this checkout. MPDATA: `taskdycore bench mpdata
# --density unit --overlap off` (iord 2, G = 1) against solvers::mpdata (n_iters 2, opts fct / none /
# fct|iga, concurr::openmp, cyclic everywhere) on taskdycore's bench flow (rotation about z, largest
# Courant sum 0.8, a cone). Taylor-Green: `taskdycore run cases/taylor_green.toml` at 64^3 (the direct
# solve, PCG + spectral preconditioner, and GCR(3) + line), ms/step over --tgv-steps steps, against libmpdata++'s
# mpdata_rhs_vip_prs (iga + FCT, CR pressure solver to 1e-7, as its tests/sandbox/tgv/tgv_3d.cpp but
# inviscid like ours and without output) on 65^3 (its cyclic grids repeat the first point: the same
# 64^3 periodic cells), the same dt (0.02) and steps. Not part of ctest or CI: it needs the peer's source.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
peer_src=$root/tools/peer/libmpdataxx
driver_src=$root/tools/peer_driver/mpdata_peer.cpp
driver=${PEER_DRIVER:-$root/build-peer/mpdata_peer}

die() { echo "peer_bench: $*" >&2; exit 1; }

setup() {
  local src=${1:-}
  [[ -n $src ]] || die "usage: tools/peer_bench.sh setup SRC (a libmpdataxx checkout or git directory)"
  rm -rf "$peer_src"
  mkdir -p "$peer_src"
  if git --git-dir="$src" rev-parse HEAD >/dev/null 2>&1 && [[ ! -d $src/libmpdata++ ]]; then
    git --git-dir="$src" archive HEAD | tar x -C "$peer_src"
    git --git-dir="$src" rev-parse HEAD >"$peer_src/.commit"
  elif [[ -d $src/libmpdata++ ]]; then
    cp -a "$src/." "$peer_src/"
    rm -rf "$peer_src/.git"
    git -C "$src" rev-parse HEAD >"$peer_src/.commit" 2>/dev/null || echo unknown >"$peer_src/.commit"
  else
    die "$src is neither a libmpdataxx checkout (no libmpdata++/ in it) nor a git directory"
  fi
  [[ -f $peer_src/libmpdata++/solvers/mpdata.hpp ]] || die "no libmpdata++/solvers/mpdata.hpp under $peer_src"
  echo "libmpdata++ $(cat "$peer_src/.commit") in $peer_src"
}

build() {
  [[ -f $peer_src/libmpdata++/solvers/mpdata.hpp ]] ||
    die "no libmpdata++ in $peer_src: run tools/peer_bench.sh setup SRC first"
  local missing=()
  [[ -f /usr/include/blitz/array.h ]] || missing+=(libblitz0-dev)
  [[ -f /usr/include/boost/timer/timer.hpp ]] || missing+=(libboost-timer-dev)
  [[ -f /usr/include/boost/chrono.hpp ]] || missing+=(libboost-chrono-dev)
  [[ -f /usr/include/boost/ptr_container/ptr_vector.hpp ]] || missing+=(libboost-dev)
  ((${#missing[@]} == 0)) || die "missing Debian packages: apt-get install -y ${missing[*]}"
  mkdir -p "$(dirname "$driver")"
  local flags=${PEER_CXXFLAGS:--O3 -march=native -fopenmp -DNDEBUG}
  echo "peer_bench: g++ -std=c++17 $flags (libmpdata++ $(cat "$peer_src/.commit" 2>/dev/null || echo '?'))" >&2
  # shellcheck disable=SC2086
  g++ -std=c++17 $flags -Wno-enum-compare -I"$peer_src" "$driver_src" -o "$driver" -lboost_timer -lboost_chrono
}

field() {  # field KEY LINE: the value of KEY=VALUE in a key=value line
  tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p" | head -n1
}

json() {  # json FILE KEY: a top-level number of a JSON file
  python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"
}

summary() {  # summary TSV...: ranges over the rounds of one or more runs
  echo "ratio: taskdycore's speed over libmpdata++'s (> 1: taskdycore faster); over the rounds: range, median,"
  echo "and the ratio of each code's best round (the least disturbed by other load on a shared machine):"
  python3 - "$@" <<'EOF'
import csv, sys
rows = [r for f in sys.argv[1:] for r in csv.DictReader(open(f), delimiter="\t")]
seen = {}
for r in rows:
    seen.setdefault((r["case"], r["grid"]), []).append(r)
for (case, grid), rs in seen.items():
    q = sorted(float(r["ratio"]) for r in rs)
    o = [float(r["ours"]) for r in rs]
    p = [float(r["peer"]) for r in rs]
    u = rs[0]["unit"]
    med = q[len(q) // 2] if len(q) % 2 else 0.5 * (q[len(q) // 2 - 1] + q[len(q) // 2])
    # best of each code over the rounds (the run least disturbed by other load)
    best = max(o) / max(p) if u == "Mcell/s" else min(p) / min(o)
    print(f"  {case:16s} {grid:11s} ratio {q[0]:.2f}-{q[-1]:.2f} (median {med:.2f}, of the bests {best:.2f})"
          f"   taskdycore {min(o):.1f}-{max(o):.1f}   libmpdata++ {min(p):.1f}-{max(p):.1f} {u}")
EOF
}

run() {
  local rounds=3 grids="64x64x64 128x128x64" steps=100 repeat=3 threads=2 tiles=2x2 cases="fct nofct iga"
  local tgv=on tgv_steps=20 tgv_tiles=1x2 out=/tmp/peer-bench-$(date -u +%Y%m%d-%H%M%S)
  while (($#)); do
    case $1 in
      --rounds) rounds=$2 ;;
      --grids) grids=$2 ;;
      --steps) steps=$2 ;;
      --repeat) repeat=$2 ;;
      --threads) threads=$2 ;;
      --tiles) tiles=$2 ;;
      --cases) cases=$2 ;;
      --tgv) tgv=$2 ;;
      --tgv-steps) tgv_steps=$2 ;;
      --tgv-tiles) tgv_tiles=$2 ;;
      --out) out=$2 ;;
      *) die "unknown option $1 (see the head of tools/peer_bench.sh)" ;;
    esac
    shift 2
  done
  local ours=${TASKDYCORE:-$root/build/taskdycore}
  [[ -x $ours ]] || die "no taskdycore at $ours (build it, or set TASKDYCORE)"
  if [[ ! -x $driver || $driver_src -nt $driver ]]; then build; fi
  mkdir -p "$out"
  local tsv=$out/results.tsv
  local ours_dir ours_rev
  ours_dir=$(cd "$(dirname "$ours")/.." && pwd)
  ours_rev=$(git -C "$ours_dir" describe --always --dirty 2>/dev/null || echo unknown)
  {
    echo "# $(date -u '+%Y-%m-%d %H:%M UTC'); $(lscpu | sed -n 's/^Model name: *//p' | head -n1), $(nproc) cores"
    echo "# taskdycore $ours ($ours_rev, built $(date -u -r "$ours" '+%Y-%m-%d %H:%M UTC'))"
    echo "# libmpdata++ $(cat "$peer_src/.commit" 2>/dev/null || echo '?'); threads $threads, steps $steps, repeat $repeat, tiles $tiles"
  } | tee "$out/header.txt"
  printf 'round\tcase\tgrid\tours\tpeer\tunit\tratio\n' >"$tsv"
  export STARPU_NCPU=$threads STARPU_NCUDA=0 STARPU_SILENT=1 OMP_NUM_THREADS=$threads
  # Perf models: taskdycore's own calibration directory for its build (the cache, keyed by commit)
  # unless STARPU_HOME is set. A directory shared between builds misleads dmdas with another build's
  # kernel times (88 against 39 ms a GCR(3) step at 64^3).
  local r g c
  printf '%-5s %-16s %-11s %12s %12s %7s\n' round case grid taskdycore libmpdata++ ratio
  for ((r = 1; r <= rounds; r++)); do
    for g in $grids; do
      for c in $cases; do
        local fct=on iga=off
        [[ $c == nofct ]] && fct=off
        [[ $c == iga ]] && iga=on
        local tag=r$r-$c-$g ours_m peer_m
        ours_mpdata() {
          rm -f "$out/$tag.json"
          "$ours" bench mpdata --grid "$g" --tiles "$tiles" --overlap off --density unit --fct "$fct" --iga "$iga" \
            --steps "$steps" --repeat "$repeat" --json "$out/$tag.json" >"$out/$tag.ours.txt" 2>&1
          ours_m=$(json "$out/$tag.json" mcells_per_s)
        }
        peer_mpdata() {
          "$driver" mpdata --grid "$g" --fct "$fct" --iga "$iga" --steps "$steps" --repeat "$repeat" \
            >"$out/$tag.peer.txt" 2>&1
          peer_m=$(field mcells_per_s "$(grep '^peer=' "$out/$tag.peer.txt")")
        }
        if ((r % 2)); then ours_mpdata; peer_mpdata; else peer_mpdata; ours_mpdata; fi
        local ratio
        ratio=$(python3 -c "print(f'{$ours_m/$peer_m:.2f}')")
        printf '%-5s %-16s %-11s %12.2f %12.2f %6s×   (Mcell/s)\n' "$r" "mpdata-$c" "$g" "$ours_m" "$peer_m" "$ratio"
        printf '%s\tmpdata-%s\t%s\t%s\t%s\tMcell/s\t%s\n' "$r" "$c" "$g" "$ours_m" "$peer_m" "$ratio" >>"$tsv"
      done
    done
    if [[ $tgv == on ]]; then
      local tag=r$r-tgv peer_ms peer_its v
      peer_tgv() {
        "$driver" tgv --grid 65x65x65 --dt 0.02 --tol 1e-7 --steps "$tgv_steps" --repeat 1 --warmup 0 \
          >"$out/$tag.peer.txt" 2>&1
        local line
        line=$(grep '^peer=' "$out/$tag.peer.txt")
        peer_ms=$(field ms_per_step "$line")
        peer_its=$(field prs_iters_per_step "$line")
      }
      ours_tgv() {  # ours_tgv VARIANT: direct (the case's solve) | spectral (PCG with it) | gcr3-line
        local extra=(--set solver.method='"pcg"' --set solver.preconditioner='"spectral"')
        [[ $1 == direct ]] && extra=(--set solver.method='"direct"' --set solver.preconditioner='"spectral"')
        [[ $1 == gcr3-line ]] && extra=(--set solver.method='"gcr"' --set solver.restart=3 --set solver.preconditioner='"line"')
        rm -rf "$out/$tag-$1"
        (cd "$root" && "$ours" run cases/taylor_green.toml --out "$out/$tag-$1" --set grid.nx=64 --set grid.ny=64 \
          --set grid.nz=64 --set tiles.x="${tgv_tiles%x*}" --set tiles.y="${tgv_tiles#*x}" \
          --set output.fields=false --set output.checkpoint=false --set time.dt=0.02 \
          --set time.steps="$tgv_steps" "${extra[@]}") >"$out/$tag-$1.ours.txt" 2>&1
      }
      if ((r % 2)); then ours_tgv direct; ours_tgv spectral; ours_tgv gcr3-line; peer_tgv
      else peer_tgv; ours_tgv gcr3-line; ours_tgv spectral; ours_tgv direct; fi
      for v in direct spectral gcr3-line; do
        local ms its ratio
        ms=$(json "$out/$tag-$v/summary.json" ms_per_step)
        its=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['solver']; print(s.get('iterations'))" \
          "$out/$tag-$v/summary.json")
        ratio=$(python3 -c "print(f'{$peer_ms/$ms:.2f}')")  # > 1: taskdycore faster
        printf '%-5s %-16s %-11s %12.1f %12.1f %6s×   (ms/step; iterations: ours %s, peer CR %s)\n' \
          "$r" "tgv-$v" 64x64x64 "$ms" "$peer_ms" "$ratio" "$its" "$peer_its"
        printf '%s\ttgv-%s\t64x64x64\t%s\t%s\tms/step\t%s\n' "$r" "$v" "$ms" "$peer_ms" "$ratio" >>"$tsv"
      done
    fi
  done
  summary "$tsv"
  echo "raw outputs: $out"
}

case ${1:-run} in
  setup) shift; setup "$@" ;;
  build) build ;;
  summary) shift; summary "$@" ;;
  run) (($#)) && shift; run "$@" ;;
  -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//' ;;
  *) die "usage: tools/peer_bench.sh setup SRC | build | run [options] (see its head)" ;;
esac
