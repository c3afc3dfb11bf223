#!/usr/bin/env bash
# tools/plot on a small synthetic run directory: diagnostics.csv and fields.h5 (time 3, z 4, y 5,
# x 6, field `psi` with units) give non-trivial PNGs; bad calls exit 2 with a message, no traceback.
# Usage: tests/tools/test_plot.sh REPO_ROOT   (KEEP_TMP=DIR: work in DIR and keep it, to look at the PNGs)
set -u
root=$1
plot=$root/tools/plot
py=/usr/bin/python3
tmp=${KEEP_TMP:-$(mktemp -d)}; [ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/checks.sh"

run=$tmp/run; mkdir -p "$run"
cat > "$run/diagnostics.csv" <<'CSV'
step,time,mass,mass_rel_change,variance,min,max
0,0,1.5,0,0.25,0,1
10,0.1,1.5000000000000002,1.4802973661668753e-16,0.24,0,0.98
20,0.2,1.4999999999999998,-1.4802973661668753e-16,0.23,0,0.95
30,0.3,1.5,0,0.225,0,0.93
CSV
$py - "$run/fields.h5" <<'PY' || { echo "FAIL: cannot build the synthetic fields.h5"; echo "0 passed, 1 failed"; exit 1; }
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "w") as f:
    coords = {"time": np.array([0.0, 0.5, 1.0]), "z": (np.arange(4) + 0.5) / 4,
              "y": (np.arange(5) + 0.5) / 5 * 2.0, "x": (np.arange(6) + 0.5) / 6 * 3.0}
    for name, values in coords.items():
        ds = f.create_dataset(name, data=values)
        ds.make_scale(name)
        ds.attrs["units"] = np.bytes_("s" if name == "time" else "m")  # bytes, as the C++ writer leaves them
    t, z, y, x = np.meshgrid(*coords.values(), indexing="ij")
    psi = f.create_dataset("psi", data=np.exp(-((x - 1.0 - t) ** 2 + (y - 1.0) ** 2) / 0.3) * (1 + z))
    psi.attrs["units"] = np.bytes_("kg m-3")
    for d, name in enumerate(coords):
        psi.dims[d].attach_scale(f[name])
    f.create_dataset("notes", data=np.arange(3.0))  # not a (time, z, y, x) field
PY

# A PNG exists, is over 5 kB and is not one flat colour.
check_png() {  # PATH WHAT
  local png=$1 what=$2
  if [ ! -f "$png" ]; then fail "$what: $png not written"; return; fi
  local size; size=$(stat -c %s "$png")
  if [ "$size" -le 5120 ]; then fail "$what: $png is only $size bytes"; return; fi
  if ! $py - "$png" <<'PY'
import sys
import matplotlib
matplotlib.use("Agg")
import matplotlib.image as mpimg
import numpy as np
img = mpimg.imread(sys.argv[1])
assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100, img.shape
colours = np.unique(img.reshape(-1, img.shape[2]), axis=0)
assert len(colours) > 16, f"only {len(colours)} distinct colours"
PY
  then fail "$what: $png looks blank"; return; fi
  pass "$what: $png ($size bytes)"
}

# Default call: both plots into RUN_DIR, paths printed.
if "$plot" "$run" > "$tmp/stdout" 2> "$tmp/stderr"; then
  if grep -qx "$run/diagnostics.png" "$tmp/stdout" && grep -qx "$run/field_psi_z2_2.png" "$tmp/stdout"; then
    pass "default call prints the paths written"
  else fail "default call printed: $(cat "$tmp/stdout")"; fi
else fail "default call exited $?: $(cat "$tmp/stderr")"; fi
check_png "$run/diagnostics.png" "diagnostics"
check_png "$run/field_psi_z2_2.png" "field, default slice and record"

# --out, --slice, --record (negative from the end).
if "$plot" "$run" --out "$tmp/out" --field psi --slice y=1 --record -3 > "$tmp/stdout" 2> "$tmp/stderr"; then
  check_png "$tmp/out/field_psi_y1_0.png" "field --slice y=1 --record -3 --out"
  check_png "$tmp/out/diagnostics.png" "diagnostics --out"
else fail "--out/--slice/--record call exited $?: $(cat "$tmp/stderr")"; fi
if "$plot" "$run" --out "$tmp/out" --slice x=5 --record 1 > "$tmp/stdout" 2> "$tmp/stderr"; then
  check_png "$tmp/out/field_psi_x5_1.png" "field --slice x=5 --record 1"
else fail "--slice x=5 call exited $?: $(cat "$tmp/stderr")"; fi

# Only a CSV: just the diagnostics plot.
mkdir -p "$tmp/csvonly"; cp "$run/diagnostics.csv" "$tmp/csvonly/"
if "$plot" "$tmp/csvonly" > "$tmp/stdout" 2> "$tmp/stderr" && [ "$(cat "$tmp/stdout")" = "$tmp/csvonly/diagnostics.png" ]; then
  pass "a run directory with only diagnostics.csv"
else fail "csv-only run directory: $(cat "$tmp/stdout" "$tmp/stderr")"; fi

# Bad calls: exit 2, a message naming the problem, no traceback.
expect_refusal() {  # TEXT-THE-MESSAGE-MUST-HOLD ARGS...
  local key=$1; shift
  "$plot" "$@" > "$tmp/stdout" 2> "$tmp/stderr"
  local rc=$?
  if [ $rc -ne 2 ]; then fail "($*): exit status $rc, expected 2: $(cat "$tmp/stderr")"; return; fi
  if grep -q "Traceback" "$tmp/stderr"; then fail "($*): traceback: $(cat "$tmp/stderr")"; return; fi
  if ! grep -qF -- "$key" "$tmp/stderr"; then fail "($*): message lacks '$key': $(cat "$tmp/stderr")"; return; fi
  pass "($*) -> exit 2: $(head -c 140 "$tmp/stderr")"
}
mkdir -p "$tmp/empty" "$tmp/badcsv"
printf 'step,time,mass\n0,0,1.0\n1,0.1\n' > "$tmp/badcsv/diagnostics.csv"
expect_refusal "no such directory" "$tmp/missing"
expect_refusal "neither" "$tmp/empty"
expect_refusal "nope" "$run" --field nope --out "$tmp/bad"
expect_refusal "notes" "$run" --field notes --out "$tmp/bad"
expect_refusal "--record" "$run" --record 3 --out "$tmp/bad"
expect_refusal "--slice z" "$run" --slice z=4 --out "$tmp/bad"
expect_refusal "--slice" "$run" --slice w=1 --out "$tmp/bad"
expect_refusal "malformed CSV" "$tmp/badcsv"
if [ -e "$tmp/bad" ]; then fail "bad calls created $tmp/bad: $(ls "$tmp/bad")"; else pass "bad calls wrote nothing"; fi

checks_done
