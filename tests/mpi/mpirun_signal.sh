#!/usr/bin/env bash
# SIGTERM or SIGINT to mpirun itself (a scheduler ending the job, Ctrl-C): Open MPI 4 sends the
# ranks SIGCONT at once, SIGTERM odls_base_sigkill_timeout seconds later and SIGKILL as long again.
# The ranks take that SIGCONT as the stop request, so: every rank stops after the same step and
# exits 143 well before the SIGKILL, rank 0 writes one checkpoint, mpirun returns within twice the
# timeout, and the checkpoint resumes to the straight run's bits. The ranks run under a wrapper
# shell (which records their exit status), as batch scripts often start them.
# Usage: mpirun_signal.sh TASKDYCORE_BINARY REPO_ROOT
set -u
bin=$(realpath "$1"); root=$(realpath "$2")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader STARPU_FXT_TRACE=0
kill_timeout=3  # odls_base_sigkill_timeout, seconds: the ranks have twice this before the SIGKILL
case=(run "$root/cases/taylor_green.toml" --set grid.nx=16 --set grid.ny=16 --set grid.nz=16 --set tiles.x=2
      --set output.fields=false --set diagnostics.interval=1)
failures=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
now() { date +%s.%N; }
seconds() { /usr/bin/python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }
checksum() { /usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['velocity_checksum'])" "$1"; }

# interrupt SIGNAL NAME: a long 2-rank run, SIGNAL to mpirun once 5 steps are recorded; sets $stopped_at.
interrupt() {
  local sig=$1 name=$2
  mpirun -np 2 --mca odls_base_sigkill_timeout $kill_timeout -x STARPU_NCPU=1 -x TDC_NAME=$name \
    sh -c 'trap "" TERM INT; "$0" "$@"; echo $? $(date +%s.%N) > "rc.$OMPI_COMM_WORLD_RANK.$TDC_NAME"' \
    "$bin" "${case[@]}" --set time.steps=100000 --out "$name" > "$name.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1200); do
    [ "$(cat "$name/diagnostics.csv" 2>/dev/null | wc -l)" -ge 7 ] || ! kill -0 $pid 2>/dev/null && break
    sleep 0.05
  done
  local t0; t0=$(now)
  kill -"$sig" $pid; wait $pid
  local waited; waited=$(seconds "$t0" "$(now)")
  stopped_at=$(grep -o 'stopped by signal 15 after step [0-9]*' "$name.log" | grep -o '[0-9]*$')
  local rc0 t0_exit rc1 t1_exit
  { read -r rc0 t0_exit < "rc.0.$name"; read -r rc1 t1_exit < "rc.1.$name"; } 2>/dev/null
  local rcs="${rc0:-none} ${rc1:-none}"
  if [ "$rcs" = "143 143" ] && [ -n "$stopped_at" ] && [ -s "$name/checkpoint.h5" ]; then
    ok "SIG$sig to mpirun: both ranks exited 143 after step $stopped_at with a checkpoint, $(seconds "$t0" "$t0_exit") and $(seconds "$t0" "$t1_exit") s after the signal; mpirun returned after $waited s"
  else
    fail "SIG$sig to mpirun: rank exit statuses '$rcs', stopped at '$stopped_at', files: $(ls "$name")"; cat "$name.log"
  fi
  /usr/bin/python3 -c "import sys; sys.exit(float(sys.argv[1]) > 2 * float(sys.argv[2]) + 2)" "$waited" $kill_timeout ||
    fail "SIG$sig: mpirun took $waited s to return"
}

interrupt TERM term
term_step=$stopped_at
interrupt INT int

# The SIGTERM's checkpoint, resumed on 2 ranks for 4 more steps, gives the straight run's bits.
if [ -n "$term_step" ]; then
  end=$((term_step + 4))
  mpirun -np 2 -x STARPU_NCPU=1 "$bin" "${case[@]}" --set time.steps=$end --restart term/checkpoint.h5 --out resumed \
    > resumed.log 2>&1 || { fail "resume failed"; cat resumed.log; }
  "$bin" "${case[@]}" --set time.steps=$end --out straight > straight.log 2>&1 || { fail "straight run failed"; cat straight.log; }
  if [ -s resumed/summary.json ] && [ "$(checksum resumed/summary.json)" = "$(checksum straight/summary.json)" ]; then
    ok "resumed from step $term_step to $end: the straight run's velocity, bit for bit"
  else
    fail "resumed from step $term_step to $end differs from the straight run"
  fi
fi
[ $failures -eq 0 ] || { echo "$failures failure(s)"; exit 1; }
