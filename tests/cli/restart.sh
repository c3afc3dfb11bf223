#!/usr/bin/env bash
# Checkpoint/restart: N steps straight == N/2 + restart + N/2, bit for bit (also with another tile
# layout and on 2 ranks); SIGINT stops a run with a checkpoint that resumes to the same answer; a
# kill -9 never damages the previous checkpoint; unusable restart files are refused with exit 2.
# Usage: restart.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export STARPU_FXT_TRACE=0 STARPU_SILENT=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader
case_file=$root/cases/deformational.toml
small=(--set grid.nx=24 --set grid.ny=24 --set grid.nz=24 --set time.dt=0.0125 --set flow.period=1.0 --set output.interval=0)
passed=0; failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
field() { /usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(s['field_checksum'], repr(s['validation']['mass_final']), s['steps'])" "$1"; }

"$bin" run "$case_file" "${small[@]}" --set time.steps=40 --out straight > log 2>&1 || { cat log; exit 1; }
"$bin" run "$case_file" "${small[@]}" --set time.steps=20 --out half > log 2>&1 || { cat log; exit 1; }
"$bin" run "$case_file" "${small[@]}" --set time.steps=40 --set tiles.x=4 --set tiles.y=3 --restart half/checkpoint.h5 --out resumed > log 2>&1 || { cat log; exit 1; }
[ "$(field straight/summary.json)" = "$(field resumed/summary.json)" ] && ok "40 steps == 20 + restart (other tiles) + 20: $(field resumed/summary.json)" || fail "restart differs: $(field straight/summary.json) vs $(field resumed/summary.json)"

mpirun -np 2 -x STARPU_NCPU=1 "$bin" run "$case_file" "${small[@]}" --set time.steps=40 --restart half/checkpoint.h5 --out resumed_np2 > log 2>&1 || { cat log; exit 1; }
[ "$(field straight/summary.json)" = "$(field resumed_np2/summary.json)" ] && ok "1-rank checkpoint resumed on 2 ranks" || fail "2-rank restart differs"

# Unusable restart files: exit 2, key named, nothing written.
refuse() {  # KEY FILE ARGS...
  local key=$1 file=$2; shift 2
  "$bin" run "$case_file" "${small[@]}" --set time.steps=40 "$@" --restart "$file" --out refused > out.txt 2> err.txt
  local rc=$?
  if [ $rc -eq 2 ] && grep -qF -- "$key" err.txt && [ ! -e refused ]; then ok "refused ($key): $(head -c 140 err.txt)"; else fail "expected refusal naming $key, got status $rc: $(cat err.txt)"; fi
}
refuse grid.nx half/checkpoint.h5 --set grid.nx=12
refuse case.name half/checkpoint.h5 --set case.name=other
refuse mpdata.fct half/checkpoint.h5 --set mpdata.fct=false
refuse time.steps half/checkpoint.h5 --set time.steps=20
head -c 2000 half/checkpoint.h5 > truncated.h5; refuse --restart truncated.h5
echo "not a checkpoint" > garbage.h5; refuse --restart garbage.h5
refuse --restart missing.h5
refuse "not a taskdycore checkpoint" straight/fields.h5

# SIGINT mid-run: exit 130 with a checkpoint that resumes to the straight answer.
long=(--set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set time.dt=0.02 --set flow.period=1.0 --set output.interval=0
      --set output.progress_seconds=0.2 --set time.steps=20000)  # long enough that the signals land mid-run
"$bin" run "$case_file" "${long[@]}" --out long_straight > log 2>&1 || { cat log; exit 1; }
"$bin" run "$case_file" "${long[@]}" --out interrupted > int.log 2>&1 &
pid=$!
# Wait for the first progress line (up to 60 s: start-up on a loaded 2-core machine is slow); a
# signal that lands before the first step finds no step to stop after.
for _ in $(seq 600); do grep -q "  step " int.log 2>/dev/null && break; sleep 0.1; done
kill -INT $pid; wait $pid; rc=$?
if [ $rc -eq 130 ] && [ -s interrupted/checkpoint.h5 ]; then
  "$bin" run "$case_file" "${long[@]}" --restart interrupted/checkpoint.h5 --out finished > log 2>&1 || { cat log; exit 1; }
  [ "$(field long_straight/summary.json)" = "$(field finished/summary.json)" ] && ok "SIGINT at step $(grep -o 'after step [0-9]*' int.log), resumed: same field" || fail "resumed after SIGINT differs"
else fail "SIGINT: status $rc (expected 130), checkpoint: $(ls interrupted 2>&1)"; cat int.log; fi

# SIGINT to mpirun on 2 ranks: the ranks agree on the stop, write one checkpoint, and it resumes.
# mpirun forwards the ranks' output when it can: on a loaded machine the first progress line may reach
# the log only after the 5-s run has ended, and the signal then finds no run to stop. Such a run (it
# says "output in" and not "interrupted") is tried again, up to three times.
for attempt in 1 2 3; do
  rm -rf interrupted_np2
  mpirun -np 2 -x STARPU_NCPU=1 "$bin" run "$case_file" "${long[@]}" --out interrupted_np2 > int2.log 2>&1 &
  pid=$!
  for _ in $(seq 600); do grep -q "  step " int2.log 2>/dev/null && break; sleep 0.1; done
  kill -INT $pid; wait $pid
  grep -q "interrupted; resume" int2.log || ! grep -q "output in" int2.log && break
  echo "(2-rank SIGINT landed after the run had ended: attempt $attempt)"
done
if grep -q "interrupted; resume" int2.log && [ -s interrupted_np2/checkpoint.h5 ]; then
  "$bin" run "$case_file" "${long[@]}" --restart interrupted_np2/checkpoint.h5 --out finished_np2 > log 2>&1 || { cat log; exit 1; }
  [ "$(field long_straight/summary.json)" = "$(field finished_np2/summary.json)" ] && ok "SIGINT on 2 ranks at $(grep -o 'after step [0-9]*' int2.log), resumed on 1: same field" || fail "resumed after 2-rank SIGINT differs"
else fail "2-rank SIGINT did not stop with a checkpoint"; cat int2.log; fi

# kill -9 while checkpoints are being written: the last complete checkpoint stays usable.
"$bin" run "$case_file" "${long[@]}" --set output.checkpoint_interval=500 --out killed > kill.log 2>&1 &
pid=$!
# Wait (up to 60 s: a loaded 2-core CI machine is slow) for the first checkpoint, then kill.
for _ in $(seq 1200); do [ -s killed/checkpoint.h5 ] && break; sleep 0.05; done
sleep 0.2; kill -KILL $pid; wait $pid 2>/dev/null
if "$bin" run "$case_file" "${long[@]}" --restart killed/checkpoint.h5 --out after_kill > log 2>&1 && \
   [ "$(field long_straight/summary.json)" = "$(field after_kill/summary.json)" ]; then
  ok "after kill -9 the checkpoint resumes to the same field"
else fail "checkpoint after kill -9 unusable"; cat log; fi

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
