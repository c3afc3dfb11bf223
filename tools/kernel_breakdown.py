#!/usr/bin/env python3
"""Per-step GPU kernel times from an ncu CSV (one metric: gpu__time_duration.sum).

Made on the device machine by
  ncu --csv --log-file K.csv --metrics gpu__time_duration.sum --print-kernel-base function \
      --clock-control none --cache-control none --target-processes all taskdycore run ...
The launches are split into steps at each launch of a marker kernel that runs once per step
(advector_kernel with one tile); the last --steps complete steps are averaged. Launches shorter
than --skip-us are counted apart: they are solver kernels that returned at once (done flag).

  tools/kernel_breakdown.py K.csv [--marker advector_kernel] [--steps 3] [--skip-us 6]
"""
import argparse
import collections
import csv
import sys


def launches(path):
    """(kernel name, microseconds) in launch order."""
    rows = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own messages are not quoted
    for r in csv.DictReader(lines):
        if r.get("Metric Name") != "gpu__time_duration.sum":
            continue
        value = float(r["Metric Value"].replace(",", ""))
        unit = r.get("Metric Unit", "ns")
        scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}.get(unit, 1e-3)
        rows.append((r["Kernel Name"], value * scale))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("csv")
    ap.add_argument("--marker", default="advector_kernel")
    ap.add_argument("--steps", type=int, default=3)
    ap.add_argument("--skip-us", type=float, default=6.0)
    a = ap.parse_args()
    rows = launches(a.csv)
    starts = [n for n, (name, _) in enumerate(rows) if name == a.marker]
    if len(starts) < a.steps + 1:
        sys.exit(f"kernel_breakdown: {len(starts)} launches of {a.marker}; need {a.steps + 1} for {a.steps} complete steps")
    first, last = starts[-a.steps - 1], starts[-1]
    run = collections.defaultdict(lambda: [0, 0.0])
    skipped = collections.defaultdict(lambda: [0, 0.0])
    for name, us in rows[first:last]:
        slot = skipped if us < a.skip_us else run
        slot[name][0] += 1
        slot[name][1] += us
    total = sum(v[1] for v in run.values()) + sum(v[1] for v in skipped.values())
    print(f"{len(rows)} launches; the {a.steps} steps before the last {a.marker} launch; per step:")
    print(f"  {'kernel':32s} {'launches':>9s} {'us':>10s} {'share':>6s}   (short launches < {a.skip_us} us: count, us)")
    for name, (count, us) in sorted(run.items(), key=lambda kv: -kv[1][1]):
        sc, su = skipped.get(name, (0, 0.0))
        print(f"  {name:32s} {count / a.steps:9.1f} {us / a.steps:10.1f} {us / total:6.1%}   ({sc / a.steps:.1f}, {su / a.steps:.1f})")
    for name, (count, us) in sorted(skipped.items(), key=lambda kv: -kv[1][1]):
        if name not in run:
            print(f"  {name:32s} {0:9.1f} {0:10.1f} {0:6.1%}   ({count / a.steps:.1f}, {us / a.steps:.1f})")
    print(f"  {'all kernels':32s} {'':9s} {total / a.steps:10.1f} us = {total / a.steps / 1e3:.2f} ms per step")


if __name__ == "__main__":
    main()
