#!/usr/bin/python3
"""Draw a Gantt chart from the step window's CSV files that `tools/trace DIR --steps N` writes.

Usage: tools/trace_gantt.py TASKS_CSV [--transfers CSV] [--from MS] [--to MS] [--png FILE] [--title T]

TASKS_CSV is DIR/window_tasks.csv (rank, worker, codelet, job, ready_ms, start_ms, end_ms, ...);
the transfers default to window_transfers.csv beside it. Both are small, so they come back from a
GPU node where the raw trace and matplotlib do not: draw the chart here. One row a worker (tasks
coloured by codelet, each task's wait between its push and its start as a thin line), then one row a
destination memory node for its incoming transfers (one process) or a row of MPI messages.
--from/--to zoom on a time range (ms from the window's start), say one step.
"""
import argparse
import csv
import os
import sys
from collections import defaultdict


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main(argv=None):
    ap = argparse.ArgumentParser(description="Gantt chart of a trace window's CSV files.")
    ap.add_argument("tasks")
    ap.add_argument("--transfers", help="window_transfers.csv (default: beside the tasks file)")
    ap.add_argument("--from", dest="lo", type=float, default=None, help="start of the range, ms")
    ap.add_argument("--to", dest="hi", type=float, default=None, help="end of the range, ms")
    ap.add_argument("--png", help="output (default: gantt_window.png beside the tasks file)")
    ap.add_argument("--title", help="the chart's title (default: the tasks file's folder)")
    args = ap.parse_args(argv)
    try:
        tasks = read_csv(args.tasks)
    except OSError as e:
        print("trace_gantt: %s" % e, file=sys.stderr)
        return 2
    here = os.path.dirname(os.path.abspath(args.tasks))
    tr_path = args.transfers or os.path.join(here, "window_transfers.csv")
    transfers = read_csv(tr_path) if os.path.isfile(tr_path) else []
    lo = args.lo if args.lo is not None else min(float(t["start_ms"]) for t in tasks)
    hi = args.hi if args.hi is not None else max(float(t["end_ms"]) for t in tasks)
    inside = lambda s, e: e > lo and s < hi
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError as e:
        print("trace_gantt: matplotlib unavailable (%s); run with Debian's /usr/bin/python3" % e, file=sys.stderr)
        return 1

    workers = sorted({(int(t["rank"]), int(t["worker"])) for t in tasks})
    label = lambda r, w: ("worker %d" % w) if r < 0 else ("rank %d worker %d" % (r, w))
    rows = [label(r, w) for r, w in workers]
    row_of = {key: i for i, key in enumerate(workers)}
    dests = sorted({t["destination"] for t in transfers if t["kind"] == "memory_nodes"})
    for d in dests:
        rows.append("to node %s" % d.split("_")[-1] + ("" if d.startswith("-1") else " (rank %s)" % d.split("_")[0]))
    mpi_row = None
    if any(t["kind"] == "mpi" for t in transfers):
        mpi_row = len(rows)
        rows.append("MPI messages")
    names = sorted({t["codelet"] for t in tasks})
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    colour = {n: cmap(i % cmap.N) for i, n in enumerate(names)}

    fig, ax = plt.subplots(figsize=(15, 1.2 + 0.5 * len(rows)))
    bars = defaultdict(list)
    for t in tasks:
        s, e = float(t["start_ms"]), float(t["end_ms"])
        if not inside(s, e):
            continue
        row = row_of[(int(t["rank"]), int(t["worker"]))]
        bars[(row, t["codelet"])].append((s, max(e - s, 1e-4)))
        if t["ready_ms"] and float(t["ready_ms"]) < s:  # pushed, not yet running: its wait
            ax.plot([max(float(t["ready_ms"]), lo), s], [row + 0.45, row + 0.45], color="0.6", linewidth=0.6)
    for (row, name), spans in bars.items():
        ax.broken_barh(spans, (row - 0.4, 0.8), facecolors=colour[name], linewidth=0)
    for t in transfers:
        s, e = float(t["start_ms"]), float(t["end_ms"])
        if not inside(s, e):
            continue
        row = mpi_row if t["kind"] == "mpi" else len(workers) + dests.index(t["destination"])
        ax.broken_barh([(s, max(e - s, 1e-4))], (row - 0.4, 0.8), facecolors="saddlebrown", alpha=0.35,
                       linewidth=0.3, edgecolor="k")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows)
    ax.invert_yaxis()
    ax.set_xlim(lo, hi)
    ax.set_xlabel("time (ms from the window's start); grey line: a task pushed and waiting")
    ax.set_title(args.title or os.path.basename(here) or here)
    handles = [Patch(color=colour[n], label=n) for n in names]
    handles.append(Patch(color="saddlebrown", alpha=0.35, label="transfer"))
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0), fontsize="small", frameon=False)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    png = args.png or os.path.join(here, "gantt_window.png")
    fig.savefig(png, dpi=110)
    print("gantt: %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
