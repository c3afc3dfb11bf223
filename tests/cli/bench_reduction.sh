#!/usr/bin/env bash
# bench reduction, quickly: a few rounds on one rank (2 tiles) and on two ranks (a tile each), the
# JSON's fields (both chains timed, every combine saw every tile: the recorded ||r|| of r = 1 is
# sqrt(cells)), and bad options refused with exit status 2 and the option named.
# Usage: bench_reduction.sh TASKDYCORE_BINARY REPO_ROOT
set -eu
bin=$1; root=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl=self,vader STARPU_FXT_TRACE=0 STARPU_SILENT=1
args=(bench reduction --grid 16x16x4 --tiles 2x1 --rounds 20 --repeat 2)
STARPU_NCPU=2 timeout 60 "$bin" "${args[@]}" --json "$tmp/one.json" > "$tmp/one.log" 2>&1 || { cat "$tmp/one.log"; exit 1; }
timeout 60 mpirun -np 2 --oversubscribe -x STARPU_NCPU=1 "$bin" "${args[@]}" --json "$tmp/two.json" > "$tmp/two.log" 2>&1 \
  || { echo "FAIL: two ranks"; cat "$tmp/two.log"; exit 1; }
grep -q 'reduction latency' "$tmp/one.log" || { echo "FAIL: no latency line"; cat "$tmp/one.log"; exit 1; }
/usr/bin/python3 - "$tmp" <<'PY'
import json, math, sys
for name, ranks, per_rank in (("one", 1, [2]), ("two", 2, [1, 1])):
    j = json.load(open(f"{sys.argv[1]}/{name}.json"))
    assert j["benchmark"] == "reduction" and j["grid"] == [16, 16, 4] and j["tiles"] == [2, 1], j
    assert j["ranks"] == ranks and j["tiles_per_rank"] == per_rank, j
    assert j["rounds"] == 20 and j["repeats"] == 2 and j["workers"]["cpu"] >= 1 and j["gpus"] == ranks * j["workers"]["cuda"], j
    for v in ("reduction", "dots_only"):
        f = j["variants"][v]
        assert f["us_per_round"] > 0 and len(f["us_per_round_all"]) == 2, (v, f)
        assert f["us_per_round_min"] <= f["us_per_round"] <= f["us_per_round_max"], (v, f)
    assert math.isclose(j["reduction_latency_us"], j["variants"]["reduction"]["us_per_round"] - j["variants"]["dots_only"]["us_per_round"])
    assert j["recorded_norm"] == j["expected_norm"] == 32.0, j  # sqrt(16 * 16 * 4), every tile combined
    print(f"{name} rank(s): reduction {j['variants']['reduction']['us_per_round']:.1f} us/round, "
          f"dots only {j['variants']['dots_only']['us_per_round']:.1f}, latency {j['reduction_latency_us']:.1f}")
PY
refuse() {  # OPTION ARGS...: exit status 2, the option named, no JSON written (bad.json unless ARGS name one)
  local key=$1; shift
  local rc=0
  "$bin" bench reduction --json "$tmp/bad.json" "$@" > "$tmp/bad.log" 2>&1 || rc=$?
  [ $rc -eq 2 ] || { echo "FAIL ($*): exit status $rc, expected 2"; cat "$tmp/bad.log"; exit 1; }
  grep -qF -- "$key" "$tmp/bad.log" || { echo "FAIL ($*): message does not name $key"; cat "$tmp/bad.log"; exit 1; }
  [ ! -e "$tmp/bad.json" ] || { echo "FAIL ($*): wrote the JSON"; exit 1; }
  echo "ok: $key -> $(head -c 120 "$tmp/bad.log")"
}
refuse --rounds --rounds 0
refuse --repeat --repeat 0
refuse --tiles --grid 16x16x4 --tiles 3x1
refuse --tiles --grid 512x512x4 --tiles 32x16
refuse --grid --grid 16x16
cp "$tmp/one.json" "$tmp/kept.json"
refuse --json --json "$tmp/one.json"  # exists already
cmp -s "$tmp/one.json" "$tmp/kept.json" || { echo "FAIL: an existing --json file was overwritten"; exit 1; }
