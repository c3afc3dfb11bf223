#!/usr/bin/env python3
"""CPU vs GPU (or any two runs) as paper 000 Table XI compares them: the L1, L2 and L-infinity norms
of the difference of the vorticity magnitude |omega| (eqs. 4-6) between two fields.h5 files of the
dynamical core, for every record time the two share. |omega| uses the model's centred differences on
the periodic grid (the Taylor-Green cases). Eq. 6 divides the maximum by N^3 as printed in the paper;
the plain maximum is given too.

usage: compare_vorticity.py A/fields.h5 B/fields.h5 [--json OUT]
"""
import argparse
import json
import sys

import h5py
import numpy as np


def vorticity_magnitude(f, n):
    dx = float(f.attrs["dx"]); dy = float(f.attrs["dy"]); dz = float(f.attrs["dz"])
    u, v, w = (np.asarray(f[name][n]) for name in ("u", "v", "w"))  # [z][y][x]

    def d(a, axis, h):  # centred difference, periodic
        return (np.roll(a, -1, axis) - np.roll(a, 1, axis)) / (2 * h)

    ox = d(w, 1, dy) - d(v, 0, dz)
    oy = d(u, 0, dz) - d(w, 2, dx)
    oz = d(v, 2, dx) - d(u, 1, dy)
    return np.sqrt(ox * ox + oy * oy + oz * oz)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--json")
    args = p.parse_args()
    with h5py.File(args.a, "r") as fa, h5py.File(args.b, "r") as fb:
        ta, tb = np.asarray(fa["time"]), np.asarray(fb["time"])
        if fa["u"].shape[1:] != fb["u"].shape[1:]:
            sys.exit(f"error: grids differ: {fa['u'].shape[1:]} vs {fb['u'].shape[1:]}")
        rows = []
        for n, t in enumerate(ta):
            m = np.nonzero(np.isclose(tb, t, rtol=0, atol=1e-9 * max(1.0, abs(t))))[0]
            if len(m) == 0:
                continue
            wa, wb = vorticity_magnitude(fa, n), vorticity_magnitude(fb, int(m[0]))
            diff = np.abs(wa - wb)
            cells = diff.size
            rows.append({"time": float(t), "mean_vorticity": float(wa.mean()), "l1": float(diff.sum() / cells),
                         "l2": float(np.sqrt((diff ** 2).sum() / cells)), "linf_eq6": float(diff.max() / cells),
                         "max_abs_difference": float(diff.max())})
    if not rows:
        sys.exit("error: the two files share no record time")
    print(f"{'time':>10} {'mean |w|':>12} {'L1':>12} {'L2':>12} {'Linf (eq 6)':>12} {'max |diff|':>12}")
    for r in rows:
        print(f"{r['time']:10.4f} {r['mean_vorticity']:12.5e} {r['l1']:12.4e} {r['l2']:12.4e} {r['linf_eq6']:12.4e} "
              f"{r['max_abs_difference']:12.4e}")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)


if __name__ == "__main__":
    main()
