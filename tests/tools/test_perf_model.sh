#!/usr/bin/env bash
# tools/perf_model.py (paper 003's performance model): --help works; predict prints the model's terms
# and one predicted_ms_per_step line; a 1-GPU prediction reproduces its calibration point within 1 %
# (MPDATA 256^3 overlap on 2.325 ms, Taylor-Green spectral 256^3 10.09, 512x512x256 37.96, multigrid
# 256^3 16.56); scan prints a row per GPU count and where adding GPUs stops paying; validate lists every
# measured 2-GPU point with its error; bad input is refused.
# Usage: tests/tools/test_perf_model.sh REPO_ROOT
set -u
root=$1
model=(python3 "$root/tools/perf_model.py")
passed=0; failed=0
pass() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

"${model[@]}" --help >/dev/null 2>&1 && pass "--help" || fail "--help"
for c in predict scan validate; do
  "${model[@]}" $c --help >/dev/null 2>&1 && pass "$c --help" || fail "$c --help"
done

predicted() { "${model[@]}" predict "$@" | awk '$1 == "predicted_ms_per_step" { print $2 }'; }
within() {  # within NAME GOT WANT PERCENT
  python3 - "$2" "$3" "$4" <<'PY' && pass "$1: $2 against $3" || fail "$1: $2 against $3 (more than $4 % apart)"
import sys
got, want, pct = (float(v) for v in sys.argv[1:])
sys.exit(0 if abs(got - want) <= pct / 100 * want else 1)
PY
}

out=$("${model[@]}" predict --case tg-spectral --grid 512x256x256 --gpus 2)
for key in computation_ms serial_ms communication_ms overlap_ms predicted_ms_per_step; do
  [ "$(grep -c "^$key " <<<"$out")" = 1 ] && pass "predict prints $key" || fail "predict lacks $key: $out"
done
grep -q "^case tg-spectral  grid 512x256x256  gpus 2  tiles 2x1  ranks 1  nodes 1$" <<<"$out" \
  && pass "predict names the configuration" || fail "predict header: $out"
grep -q "^split_overhead_H " <<<"$("${model[@]}" predict --case mpdata --grid 256x256x256 --gpus 1)" \
  && pass "mpdata prints eq. 4's H" || fail "mpdata lacks H"

within "mpdata 256^3, 1 GPU" "$(predicted --case mpdata --grid 256x256x256 --gpus 1)" 2.325 1
within "tg-spectral 256^3, 1 GPU" "$(predicted --case tg-spectral --grid 256x256x256 --gpus 1)" 10.09 1
within "tg-spectral 512x512x256, 1 GPU" "$(predicted --case tg-spectral --grid 512x512x256 --gpus 1)" 37.96 1
within "tg-multigrid 256^3, 1 GPU" "$(predicted --case tg-multigrid --grid 256x256x256 --gpus 1 --iterations 7)" 16.56 1
within "bubble 256^3, 1 GPU" "$(predicted --case bubble --grid 256x256x256 --gpus 1)" 10.5 1
# the 2-GPU points the model did not fit must stay within the issue's 15 %
within "mpdata 512x256x256, 2 GPUs (check)" "$(predicted --case mpdata --grid 512x256x256 --gpus 2)" 2.420 15
within "tg-spectral 512x512x256, 2 GPUs (check)" "$(predicted --case tg-spectral --grid 512x512x256 --gpus 2 --tiles 2x1)" 40.63 15

scan=$("${model[@]}" scan --case mpdata --grid 256x256x256 --weak --max-gpus 16)
rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+x[0-9]+ ' <<<"$scan")
[ "$rows" = 16 ] && pass "scan: 16 rows" || fail "scan: $rows rows: $scan"
grep -qE '^best_gpus ' <<<"$scan" && grep -qE '^stops_paying_nodes ' <<<"$scan" \
  && pass "scan names where adding GPUs and nodes stops paying" || fail "scan summary: $scan"
strong=$("${model[@]}" scan --case tg-spectral --grid 1024x512x256 --max-gpus 8)
[ "$(grep -cE '^ +[0-9]+ +1 ' <<<"$strong")" = 4 ] && pass "strong scan skips GPU counts the grid does not split into" \
  || fail "strong scan rows: $strong"

whole=$(predicted --case tg-spectral --grid 1024x512x256 --gpus 8 --ranks-per-node 8)
tiles=$(predicted --case tg-spectral --grid 1024x512x256 --gpus 8 --ranks-per-node 8 --scatter tiles)
python3 -c "import sys; sys.exit(0 if float('$tiles') < float('$whole') else 1)" \
  && pass "--scatter tiles sends less than the whole array to every rank ($tiles < $whole ms)" \
  || fail "--scatter tiles: $tiles against $whole"
within "two ranks 512x256x256 (fitted point)" "$(predicted --case tg-spectral --grid 512x256x256 --gpus 2 --gpus-per-node 2 --ranks-per-node 2)" 445 1

val=$("${model[@]}" validate)
[ "$(grep -cE '^(mpdata|tg-spectral|tg-multigrid) ' <<<"$val")" = 8 ] && pass "validate: 6 two-GPU points and 2 cross-checks" \
  || fail "validate: $val"

if "${model[@]}" predict --case mpdata --grid 255x256x256 --gpus 2 >/dev/null 2>&1; then
  fail "a grid that does not split into the tiles was accepted"
else pass "a grid that does not split is refused"; fi
if "${model[@]}" predict --case mpdata --grid 256x256 --gpus 1 >/dev/null 2>&1; then
  fail "a 2D grid was accepted"
else pass "a malformed grid is refused"; fi

echo "perf_model: $passed passed, $failed failed"
[ "$failed" = 0 ]
