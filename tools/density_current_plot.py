#!/usr/bin/python3
"""theta' of density-current runs (cases/density_current.toml) at their last record, right of the
bubble's centre, one panel a run, with the -1 K contour and Straka et al. (1993)'s front position.

usage: tools/density_current_plot.py RUN_DIR [RUN_DIR ...] --png FILE

The bubble is taken at the domain's centre (as in the case file). Reads each RUN_DIR/summary.json (validation.front_position_m, theta_min_K and the reference under
density_current) and RUN_DIR/fields.h5 (theta' at the last record, the first y column). Exits 2 when
a run is not a density-current run or its files cannot be read.
Needs numpy, h5py and matplotlib: run with Debian's /usr/bin/python3.
"""
import argparse
import json
import os
import sys

import h5py
import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run_dirs", nargs="+")
    ap.add_argument("--png", required=True)
    args = ap.parse_args()
    runs = []
    for d in args.run_dirs:
        try:
            with open(os.path.join(d, "summary.json")) as fh:
                s = json.load(fh)
            ref, v = s["density_current"], s["validation"]
            with h5py.File(os.path.join(d, "fields.h5"), "r") as f5:
                theta = np.asarray(f5["theta"][-1, :, 0, :])  # [z, x]
                x, z, t = np.asarray(f5["x"]), np.asarray(f5["z"]), float(f5["time"][-1])
            xc = 0.5 * (x[0] + x[-1])  # the case's bubble sits at the domain's centre (summary.json omits it)
        except (OSError, KeyError, ValueError) as e:
            print(f"density_current_plot: cannot read a density-current run in {d}: {e}", file=sys.stderr)
            return 2
        runs.append((d, s, ref, v, theta, x, z, t, xc))
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(len(runs), 1, figsize=(10, 2.3 * len(runs) + 0.6), sharex=True, squeeze=False,
                             constrained_layout=True)
    levels = np.arange(-16.5, 0.6, 1.0)
    for ax, (d, s, ref, v, theta, x, z, t, xc) in zip(axes[:, 0], runs):
        right = x >= xc
        xs = (x[right] - xc) / 1e3
        cs = ax.contourf(xs, z / 1e3, theta[:, right], levels=levels, cmap="viridis")
        ax.contour(xs, z / 1e3, theta[:, right], levels=[-1.0], colors="r", linewidths=0.8)
        ax.axvline(ref["reference_front_position_m"] / 1e3, color="w", ls="--", lw=1)
        g = s["grid"]
        ax.set_title(f"{os.path.basename(os.path.normpath(d))}: {g['nx']} x {g['nz']}, t = {t:g} s; "
                     f"front {v['front_position_m']:.0f} m, theta' min {v['theta_min_K']:.3f} K "
                     f"(dashed: reference {ref['reference_front_position_m']:.0f} m)", fontsize=9)
        ax.set_ylabel("z (km)")
        ax.set_ylim(0, 4.5)
        ax.set_xlim(0, min(19.2, xs[-1]))
        ax.set_aspect("equal")
        fig.colorbar(cs, ax=ax, label="theta' (K)", ticks=[-15, -10, -5, -1, 0])
    axes[-1, 0].set_xlabel("x - x_c (km)")
    fig.savefig(args.png, dpi=80)
    print(args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
