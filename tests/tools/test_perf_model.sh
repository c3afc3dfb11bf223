#!/usr/bin/env bash
# tools/perf_model.py (paper 003's performance model, slab-form spectral term): --help works; predict
# prints the model's terms and one predicted_ms_per_step line; a 1-GPU prediction reproduces its
# calibration point within 1 % (figures read from tools/perf_model_calibration.json, so a refresh of
# the measured figures keeps this test valid); tiles 1 x G (G a power of two up to 16) split the
# chains and exchange their ends, far below the two transposes of the slab flows (--flow slabs, or
# other layouts), which the modelled operators take in either slab kind; the transposes scale with
# the applications a step; validate lists every
# measured point, reproduces the fitted ones and keeps the checks within the issue's 15 % unless the
# point's JSON entry says why it misses ("misses"), and such a point does miss; scan prints
# a row per GPU count and where adding GPUs stops paying; bad input is refused. The direct solve
# (--solver direct, the spectral cases' default): its 1-GPU predictions reproduce its 1-GPU figures,
# its fitted 4-GPU point is reproduced, it has no reductions, and it is below PCG on 4 GPUs; its strips
# take its own halo width and counts (dycore_direct), PCG's MPDATA's width.
# Usage: tests/tools/test_perf_model.sh REPO_ROOT
set -u
root=$1
model=(python3 "$root/tools/perf_model.py")
cal=$root/tools/perf_model_calibration.json
. "$(dirname "$0")/checks.sh"

"${model[@]}" --help >/dev/null 2>&1 && pass "--help" || fail "--help"
for c in predict scan validate; do
  "${model[@]}" $c --help >/dev/null 2>&1 && pass "$c --help" || fail "$c --help"
done

predicted() { "${model[@]}" predict "$@" | awk '$1 == "predicted_ms_per_step" { print $2 }'; }
term() { local k=$1; shift; "${model[@]}" predict "$@" | awk -v k="$k" '$1 == k { print $2 }'; }
calv() { python3 -c "import json, sys; c = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$cal" "$1"; }
within() {  # within NAME GOT WANT PERCENT
  python3 - "$2" "$3" "$4" <<'PY' && pass "$1: $2 against $3" || fail "$1: $2 against $3 (more than $4 % apart)"
import sys
got, want, pct = (float(v) for v in sys.argv[1:])
sys.exit(0 if abs(got - want) <= pct / 100 * want else 1)
PY
}
less() {  # less NAME A B: A < B
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$2" "$3" \
    && pass "$1 ($2 < $3)" || fail "$1 ($2 not < $3)"
}

out=$("${model[@]}" predict --case tg-spectral --grid 256x512x256 --gpus 2)
for key in computation_ms spectral_stages_ms transposes_ms halo_ms reductions_ms communication_ms overlap_ms \
           predicted_ms_per_step; do
  [ "$(grep -c "^$key " <<<"$out")" = 1 ] && pass "predict prints $key" || fail "predict lacks $key: $out"
done
grep -q "^case tg-spectral  grid 256x512x256  gpus 2  tiles 1x2  ranks 1  nodes 1$" <<<"$out" \
  && pass "predict names the configuration (tiles 1xG by default)" || fail "predict header: $out"
grep -q "^transposes_ms .*(1 application(s) x the split chains' ends, no transposes)" <<<"$out" \
  && pass "tiles 1x2: one application, split chains" || fail "rows split chains: $out"
grep -q "^transposes_ms .*(1 application(s) x 2 transposes, 2 slabs)" \
  <<<"$("${model[@]}" predict --case tg-spectral --grid 256x512x256 --gpus 2 --flow slabs)" \
  && pass "tiles 1x2, --flow slabs: two transposes, two slabs" || fail "rows transposes with --flow slabs"
less "split chains' ends below the transposes" \
  "$(term transposes_ms --case tg-spectral --grid 256x1024x256 --gpus 4)" \
  "$(term transposes_ms --case tg-spectral --grid 256x1024x256 --gpus 4 --flow slabs)"
grep -q "^transposes_ms .* x 2 transposes, 2 slabs)" <<<"$("${model[@]}" predict --case tg-spectral --grid 512x256x256 --gpus 2 --tiles 2x1)" \
  && pass "tiles 2x1: level slabs, two transposes" || fail "2x1 transposes"
grep -q "^transposes_ms .* x 2 transposes, 8 slabs)" <<<"$("${model[@]}" predict --case tg-spectral --grid 1024x512x256 --gpus 8 --layout 2d)" \
  && pass "--layout 2d on 8 GPUs: tiles 4x2, level slabs, two transposes" || fail "2d layout"
grep -q "x 2 transposes, 8 slabs)" <<<"$("${model[@]}" predict --case tg-spectral --grid 1024x512x256 --gpus 8 --flow slabs)" \
  && pass "8 GPUs, tiles 1x8, --flow slabs: eight column slabs" || fail "1x8 slabs"
grep -q "^split_overhead_H " <<<"$("${model[@]}" predict --case mpdata --grid 256x256x256 --gpus 1)" \
  && pass "mpdata prints eq. 4's H" || fail "mpdata lacks H"
t1=$(term transposes_ms --case tg-spectral --grid 256x512x256 --gpus 2 --applications 1 --flow slabs)
t3=$(term transposes_ms --case tg-spectral --grid 256x512x256 --gpus 2 --applications 3 --flow slabs)
within "transposes scale with the applications a step (3 x $t1)" "$t3" "$(python3 -c "print(3 * $t1)")" 1
within "1 GPU moves no pieces" "$(python3 -c "print(1 + $(term transposes_ms --case tg-spectral --grid 256x256x256 --gpus 1))")" 1 0.001

# 1-GPU predictions reproduce their calibration points
within "mpdata 256^3, 1 GPU" "$(predicted --case mpdata --grid 256x256x256 --gpus 1)" \
  "$(calv '[p["ms"] for p in c["mpdata"]["one_gpu"] if p["tiles"] == "1x1" and p["overlap"] == "on"][0]')" 1
for form in dycore_spectral:pcg dycore_direct:direct; do
  key=${form%:*} solver=${form#*:}
  for i in 0 1; do
    g=$(calv "c['$key']['one_gpu'][$i]['grid']")
    within "tg-spectral $g, 1 GPU, $solver" "$(predicted --case tg-spectral --grid "$g" --gpus 1 --solver "$solver")" \
      "$(calv "c['$key']['one_gpu'][$i]['ms']")" 1
  done
  within "bubble 256^3, 1 GPU, $solver" \
    "$(predicted --case bubble --grid "$(calv "c['$key']['bubble_one_gpu']['grid']")" --gpus 1 --solver "$solver")" \
    "$(calv "c['$key']['bubble_one_gpu']['ms']")" 1
done
within "tg-multigrid 256^3, 1 GPU" "$(predicted --case tg-multigrid --grid 256x256x256 --gpus 1 --iterations 7)" \
  "$(calv '[p["ms"] for p in c["dycore_multigrid"]["one_gpu"] if p["grid"] == "256x256x256"][0]')" 1

val=$("${model[@]}" validate)
n=$(calv 'len(c["validation"]["points"]) + len(c.get("skipped_applications", {}).get("pairs", []))')
[ "$(grep -cE '^(mpdata|tg-spectral|bubble|tg-multigrid|skipped) ' <<<"$val")" = "$n" ] \
  && pass "validate: a row per measured point ($n)" || fail "validate rows: $val"
nfit=$(grep -c 'fitted: ' <<<"$val")
want=$(calv 'sum(1 for p in c["validation"]["points"] + c.get("skipped_applications", {}).get("pairs", []) if p.get("fits"))')
[ "$nfit" = "$want" ] && [ "$nfit" -ge 2 ] && pass "validate marks the $nfit fitted points" || fail "validate fitted marks: $nfit: $val"
bad=$(grep 'fitted: ' <<<"$val" | awk '{ e = $10; sub("%", "", e); if (e + 0 > 0.5 || e + 0 < -0.5) print }')
[ -z "$bad" ] && pass "validate: the fitted points are reproduced" || fail "fitted points off: $bad"
nchk=$(grep -cE ' check$' <<<"$val")
# a check may miss 15 % only where its JSON entry says why ("misses"), and a point that says so must miss
miss=$(grep 'MISSES' <<<"$val" | grep -v "(known: see its 'misses')")
[ -z "$miss" ] && pass "validate: $nchk checks within 15 %, no unexplained miss" || fail "a check misses 15 % unexplained: $miss"
nknown=$(grep -c "(known: see its 'misses')" <<<"$val")
want=$(calv 'sum(1 for p in c["validation"]["points"] if p.get("misses"))')
[ "$nknown" = "$want" ] && pass "validate: the $nknown point(s) noted as missing do miss" \
  || fail "points noted as missing ($want) against misses shown ($nknown): $val"
grep -qE '^# derived: .*stage factor .*\(fitted\), NVLink .* effective \((fitted|given)\)' <<<"$val" \
  && pass "validate names the fitted terms" || fail "validate derived line: $val"
grep -qE '^# derived, direct solve: stage factor .*\(fitted\), reductions 0 ' <<<"$val" \
  && pass "validate names the direct form's fitted factor" || fail "validate direct derived line: $val"

# the direct solve: the spectral cases' default; its fitted point reproduced by predict; no reductions;
# below PCG on 4 GPUs (no reductions, no PCG passes on the path)
fitp='[p for p in c["validation"]["points"] if p.get("fits") == "stage_overhead_factor_direct"][0]'
[ "$(calv "$fitp['solver']")" = direct ] && pass "the direct factor is fitted on a direct point" || fail "direct fit point"
fg=$(calv "$fitp['grid']") ft=$(calv "$fitp['tiles']") fn=$(calv "$fitp['gpus']") fc=$(calv "$fitp['case']")
ff=$([ "$(calv "$fitp.get('split_chains', False)")" = True ] && echo split || echo slabs)  # the flow it ran
within "predict --solver direct reproduces its fitted point ($fc $fg, $fn GPUs)" \
  "$(predicted --case "$fc" --grid "$fg" --gpus "$fn" --tiles "$ft" --solver direct --flow "$ff")" "$(calv "$fitp['ms']")" 1
[ "$(predicted --case tg-spectral --grid 256x1024x256 --gpus 4)" = "$(predicted --case tg-spectral --grid 256x1024x256 --gpus 4 --solver direct)" ] \
  && pass "tg-spectral takes the direct solve by default" || fail "default solver is not direct"
d4=$("${model[@]}" predict --case tg-spectral --grid 256x1024x256 --gpus 4 --solver direct)
grep -q "^solver  *direct " <<<"$d4" && pass "predict names the solver" || fail "predict solver line: $d4"
[ "$(awk '$1 == "reductions_ms" { print $2 }' <<<"$d4")" = 0.000 ] && pass "direct: no reductions on the path" \
  || fail "direct reductions: $d4"
want="($(calv 'c["dycore_direct"]["halo_fields_per_step"]["value"]') fields of width $(calv 'c["dycore_direct"]["halo_width"]["value"]') in $(calv 'c["dycore_direct"]["halo_exchanges_per_step"]["value"]') exchanges a step)"
grep -qF "$want" <<<"$d4" && pass "direct: strips $want" || fail "direct halo line (want $want): $d4"
want="of width $(calv 'c["mpdata"]["halo_width"]') in"
grep -qF "$want" <<<"$("${model[@]}" predict --case tg-spectral --grid 256x1024x256 --gpus 4 --solver pcg)" \
  && pass "pcg: strips $want" || fail "pcg halo width (want $want)"
for cg in "tg-spectral 256x1024x256" "bubble 256x1024x256" "tg-spectral 512x512x256"; do
  set -- $cg
  less "direct below PCG on 4 GPUs ($1 $2)" "$(predicted --case "$1" --grid "$2" --gpus 4 --solver direct)" \
    "$(predicted --case "$1" --grid "$2" --gpus 4 --solver pcg)"
done
if "${model[@]}" predict --case tg-multigrid --grid 256x512x256 --gpus 2 --solver direct >/dev/null 2>&1; then
  fail "the direct solve with multigrid was accepted"
else pass "the direct solve with multigrid is refused"; fi

less "one rank a GPU is slower than one process (8 GPUs, pieces host-staged)" \
  "$(predicted --case tg-spectral --grid 256x2048x256 --gpus 8)" "$(predicted --case tg-spectral --grid 256x2048x256 --gpus 8 --ranks-per-node 8)"

scan=$("${model[@]}" scan --case mpdata --grid 256x256x256 --weak --max-gpus 16)
rows=$(grep -cE '^ +[0-9]+ +[0-9]+ +[0-9]+x[0-9]+ ' <<<"$scan")
[ "$rows" = 16 ] && pass "scan: 16 rows" || fail "scan: $rows rows: $scan"
grep -qE '^best_gpus ' <<<"$scan" && grep -qE '^stops_paying_nodes ' <<<"$scan" \
  && pass "scan names where adding GPUs and nodes stops paying" || fail "scan summary: $scan"
grep -q "^# tg-spectral (direct solve), weak scaling" <<<"$("${model[@]}" scan --case tg-spectral --grid 256x256x256 --weak --max-gpus 2)" \
  && pass "scan names the solver (direct by default)" || fail "scan solver header"
strong=$("${model[@]}" scan --case tg-spectral --grid 1024x512x256 --max-gpus 8)
[ "$(grep -cE '^ +[0-9]+ +1 ' <<<"$strong")" = 4 ] && pass "strong scan skips GPU counts the grid does not split into" \
  || fail "strong scan rows: $strong"

if "${model[@]}" predict --case mpdata --grid 255x256x256 --gpus 2 --tiles 2x1 >/dev/null 2>&1; then
  fail "a grid that does not split into the tiles was accepted"
else pass "a grid that does not split is refused"; fi
if "${model[@]}" predict --case mpdata --grid 256x256 --gpus 1 >/dev/null 2>&1; then
  fail "a 2D grid was accepted"
else pass "a malformed grid is refused"; fi

checks_done perf_model
