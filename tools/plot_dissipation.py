#!/usr/bin/python3
"""Plots -dE/dt of dynamical-core runs (validation.dissipation_rate of their summary.json) against
the Re = 1600 Taylor-Green DNS peak. Usage: tools/plot_dissipation.py OUT.png LABEL=RUN_DIR..."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if len(sys.argv) < 3:
    sys.exit(__doc__)
fig, ax = plt.subplots(figsize=(6, 4))
for arg in sys.argv[2:]:
    label, run = arg.split("=", 1)
    d = json.load(open(f"{run}/summary.json"))["validation"]["dissipation_rate"]
    ax.plot(d["time"], d["value"], label=f"taskdycore {label}")
ax.plot([9.0], [0.0127], "k*", ms=10, label="DNS peak (0.0127 near t = 9)")
ax.set_xlabel("t")
ax.set_ylabel("-dE/dt")
ax.set_title("Taylor-Green, Re = 1600")
ax.legend()
ax.grid(alpha=0.3)
fig.tight_layout()
fig.savefig(sys.argv[1], dpi=110)
