#!/usr/bin/python3
"""Summarise a StarPU 1.3 FxT trace after `starpu_fxt_tool -d DIR` has run.

Usage: trace_analysis.py DIR [--png FILE] [--json FILE]
(normally called by tools/trace, which runs starpu_fxt_tool first).

Inputs, all in DIR (written by starpu_fxt_tool; any may be missing):
  tasks.rec   one record per task: Name, WorkerId, StartTime, EndTime, MPIRank
              (times in ms since the trace origin).  Records without
              StartTime/EndTime (sync tasks, unregister, ...) never ran on a
              worker and are only counted.
  paje.trace  worker and memory-node containers (PajeCreateContainer) and
              links (PajeStartLink/PajeEndLink): link types F, TF, PF, IF are
              data fetches / task prefetches / prefetches / idle prefetches between memory nodes
              (value = bytes, keyed com_N), MPIL are MPI messages between
              ranks (value = bytes, keyed mpicom_N), WSL (work stealing) is
              ignored.
  trace.rec   worker/thread state changes; only used for the traced span and,
              if tasks.rec is unusable, as a fallback source of task intervals.
  StarPU 1.3.10 writes no comms.rec (that file appeared in StarPU 1.4); MPI
  traffic is read from the MPIL links instead.

Outputs (printed, and written to DIR/trace_summary.json):
  span        trace_*: first..last event of trace.rec (starpu_init to
              shutdown, so it includes start-up); task_*: first task start ..
              last task end.  All times are milliseconds.
  workers     per worker (rank -1 = single process, no MPI): kind (CPU, CUDA,
              ...), tasks executed, busy_ms (union of its task intervals),
              busy % over the traced span and busy % over the task span.
  codelets    per task name: count, total/mean/min/max execution time, and the
              count per worker kind it ran on.
  transfers   "memory_nodes": data transfers between memory nodes of one
              process (RAM <-> GPU over PCIe/NVLink, GPU <-> GPU, RAM <-> disk
              for out-of-core); "mpi": messages between MPI ranks.  Each has
              count, bytes, summed duration, count by link type (fetch /
              task_prefetch / prefetch / idle_prefetch), count and bytes per (source,
              destination) pair, and
              overlap_fraction = sum over transfers of (time during which at
              least one worker of the same MPI rank(s) was executing a task) /
              sum of transfer durations.  1.0 means transfers were entirely
              hidden behind computation; null means there were no transfers.
  notes       anything missing or odd in the inputs.
Memory nodes are labelled by the workers living on them: RAM(node0),
CUDA(node1); a node without workers (e.g. disk) is just "node2".

The Gantt chart (DIR/gantt.png or --png FILE) has one row per worker with
tasks coloured by codelet name, plus a "transfers" row (per rank under MPI)
and an "MPI transfers" row when transfers were traced, coloured by direction
(from RAM, to RAM, other, MPI); the x axis covers the task/transfer window.
"""

import argparse
import bisect
import json
import os
import re
import shlex
import signal
import sys
from collections import defaultdict

# StarPU 1.4 added TF (a task's prefetch, issued when the scheduler pushes the task): most transfers of a
# dmdas run are of this kind.
TRANSFER_LINK_TYPES = {"F": "fetch", "TF": "task_prefetch", "PF": "prefetch", "IF": "idle_prefetch"}
MPI_LINK_TYPE = "MPIL"


# ----------------------------------------------------------------- rec files

def readable(path):
    return os.path.isfile(path) and os.access(path, os.R_OK)


def read_rec(path):
    """Yield the records of a GNU recutils file as dicts (first value wins)."""
    record = {}
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip():
                if record:
                    yield record
                record = {}
                continue
            if line.startswith("#") or ":" not in line:
                continue
            key, _, value = line.partition(":")
            record.setdefault(key.strip(), value.strip())
    if record:
        yield record


def to_float(text, default=None):
    try:
        return float(text)
    except (TypeError, ValueError):
        return default


def to_int(text, default=None):
    try:
        return int(text)
    except (TypeError, ValueError):
        return default


class Task:
    __slots__ = ("name", "rank", "worker", "start", "end", "order", "submit", "job", "ready", "deps")

    def __init__(self, name, rank, worker, start, end, order=None, submit=None, job=None, ready=None, deps=()):
        self.name, self.rank, self.worker = name, rank, worker
        self.start, self.end, self.order, self.submit = start, end, order, submit
        self.job, self.ready, self.deps = job, ready, deps  # JobId, pushed to the scheduler, DependsOn


def load_tasks(path, notes):
    """Executed tasks from tasks.rec; returns (tasks, number of non-executed records)."""
    if not readable(path):
        notes.append("tasks.rec missing or unreadable")
        return [], 0
    tasks, skipped = [], 0
    for rec in read_rec(path):
        start, end = to_float(rec.get("StartTime")), to_float(rec.get("EndTime"))
        worker = to_int(rec.get("WorkerId"))
        if start is None or end is None or worker is None or worker < 0:
            skipped += 1
            continue
        name = rec.get("Name") or rec.get("Model") or "<unnamed>"
        tasks.append(Task(name, to_int(rec.get("MPIRank"), -1), worker, start, max(end, start),
                          to_int(rec.get("SubmitOrder")), to_float(rec.get("SubmitTime")), rec.get("JobId"),
                          to_float(rec.get("ReadyTime")), tuple(rec.get("DependsOn", "").split())))
    return tasks, skipped


def load_push_times(path, tasks):
    """Fill each task's ready time, where tasks.rec has no ReadyTime (StarPU 1.4.10): its first push
    to the scheduler in sched_tasks.rec, which happens once its dependencies have ended."""
    if not readable(path) or all(t.ready is not None for t in tasks):
        return
    pushed = {}
    for rec in read_rec(path):
        if rec.get("Type") == "push" and rec.get("JobId") is not None:
            pushed.setdefault(rec["JobId"], to_float(rec.get("Time")))
    for t in tasks:
        if t.ready is None and t.job in pushed:
            t.ready = pushed[t.job]


def scan_trace_rec(path, notes):
    """(first, last) timestamps of trace.rec and task intervals found in it.

    A worker enters a task with 'SetState' of category 'Task' (N = codelet
    name) and leaves it at its next SetState.  trace.rec carries no MPI rank,
    so these intervals are rank -1; they are only a fallback.
    """
    if not readable(path):
        notes.append("trace.rec missing or unreadable: traced span taken from tasks.rec")
        return None, None, []
    first = last = None
    current, tasks = {}, []
    for rec in read_rec(path):
        t = to_float(rec.get("S"))
        if t is None:
            continue
        first = t if first is None else min(first, t)
        last = t if last is None else max(last, t)
        worker = to_int(rec.get("W"), -1)
        if rec.get("E") != "SetState" or worker < 0 or rec.get("T") != "-1":
            continue
        if worker in current:
            name, start = current.pop(worker)
            tasks.append(Task(name, -1, worker, start, max(t, start)))
        if rec.get("C") == "Task":
            current[worker] = (rec.get("N", "<unnamed>"), t)
    return first, last, tasks


# ---------------------------------------------------------------- paje.trace

def split_paje(line):
    return shlex.split(line) if '"' in line else line.split()


def read_paje_header(f):
    """Map event id -> (event name, [field names]) from the %EventDef header."""
    defs, fields = {}, None
    for line in f:
        if not line.startswith("%"):
            return defs, line
        words = line[1:].split()
        if not words:
            continue
        if words[0] == "EventDef" and len(words) >= 3:
            fields = []
            defs[words[2]] = (words[1], fields)
        elif words[0] == "EndEventDef":
            fields = None
        elif fields is not None:
            fields.append(words[0])
    return defs, None


def link_fields(fields):
    """Positions of the fields a link event needs, or None."""
    endpoint = "StartContainer" if "StartContainer" in fields else "EndContainer"
    needed = ["Time", "Type", "Container", "Value", endpoint, "Key"]
    if not all(n in fields for n in needed):
        return None
    return [fields.index(n) + 1 for n in needed]   # +1: token 0 is the event id


class Paje:
    def __init__(self):
        self.containers = {}     # alias -> (type, parent alias, name)
        self.link_events = []    # (type, container, key, time, endpoint, value)


def parse_paje(path, notes):
    """Containers and raw link events of paje.trace (None if unreadable)."""
    if not readable(path):
        notes.append("paje.trace missing or unreadable: no worker names, no transfers")
        return None
    paje = Paje()
    with open(path, errors="replace") as f:
        defs, line = read_paje_header(f)
        if not defs:
            notes.append("paje.trace has no %EventDef header: ignored")
            return None
        create, links = container_fields(defs), {}
        for ev, (name, fields) in defs.items():
            if "Link" in name and name not in ("PajeDefineLinkType",):
                pos = link_fields(fields)
                if pos:
                    links[ev] = pos
        while line is not None:
            parse_paje_line(line, paje, create, links)
            line = next(f, None)
    return paje


def container_fields(defs):
    """{event id: positions of Alias, Type, Container, Name} for PajeCreateContainer."""
    out = {}
    for ev, (name, fields) in defs.items():
        if name == "PajeCreateContainer" and all(
                n in fields for n in ("Alias", "Type", "Container", "Name")):
            out[ev] = [fields.index(n) + 1 for n in ("Alias", "Type", "Container", "Name")]
    return out


def parse_paje_line(line, paje, create, links):
    head = line.split(None, 1)
    if not head or (head[0] not in create and head[0] not in links):
        return
    try:
        tok = split_paje(line)
        if head[0] in create:
            a, t, c, n = (tok[i] for i in create[head[0]])
            paje.containers[a] = (t, c, n)
        else:
            t, typ, cont, val, endpoint, key = (tok[i] for i in links[head[0]])
            if typ in TRANSFER_LINK_TYPES or typ == MPI_LINK_TYPE:
                paje.link_events.append((typ, cont, key, float(t), endpoint, val))
    except (IndexError, ValueError):
        pass   # truncated or foreign line: skip it


# ------------------------------------------------------ workers, memory nodes

RANK_ALIAS = re.compile(r"^(?:(\d+)_)?([a-z]+)(\d+)$")
KIND_NAME = re.compile(r"^(?:\d+_)?([A-Za-z_]+?)\d")


def alias_rank_id(alias):
    """'1_w3' -> (1, 'w', 3); 'mm0' -> (-1, 'mm', 0); otherwise None."""
    m = RANK_ALIAS.match(alias)
    if not m:
        return None
    return (int(m.group(1)) if m.group(1) else -1, m.group(2), int(m.group(3)))


def worker_kind(name):
    m = KIND_NAME.match(name or "")
    return m.group(1).upper() if m else "?"


def describe_workers(paje):
    """{(rank, workerid): {'name','kind','memnode'}} from paje containers."""
    workers = {}
    if paje is None:
        return workers
    for alias, (typ, parent, name) in paje.containers.items():
        rid = alias_rank_id(alias)
        if typ != "W" or not rid or rid[1] != "w":
            continue
        thread = paje.containers.get(parent, (None, "", None))
        node = alias_rank_id(thread[1] or "")
        workers[(rid[0], rid[2])] = {
            "name": name, "kind": worker_kind(name),
            "memnode": node[2] if node and node[1] == "mn" else None}
    return workers


def memnode_kinds(workers):
    """{(rank, memnode): 'RAM' | 'CUDA' | ...}: a node holding only CPU workers is RAM."""
    kinds = {}
    for (rank, _), w in workers.items():
        if w["memnode"] is not None:
            kind = "RAM" if w["kind"] == "CPU" else w["kind"]
            if kinds.get((rank, w["memnode"]), "RAM") == "RAM":
                kinds[(rank, w["memnode"])] = kind
    return kinds


# ------------------------------------------------------------------ transfers

class Transfer:
    __slots__ = ("kind", "link", "src", "dst", "ranks", "start", "end", "size", "truncated")

    def __init__(self, **kw):
        for k, v in kw.items():
            setattr(self, k, v)


def pair_links(events):
    """Pair start/end events sharing (type, container, key) into intervals.

    Position-based on purpose: the earlier event is the start (its endpoint
    is the source), the later one the end.  This also copes with the event
    24 StarPU writes at time 0 as a fake start for a transfer whose real
    start was not traced.
    """
    groups = defaultdict(list)
    for typ, cont, key, t, endpoint, val in events:
        groups[(typ, cont, key)].append((t, endpoint, val))
    for (typ, _, _), evs in groups.items():
        evs.sort(key=lambda e: e[0])
        for i in range(0, len(evs) - 1, 2):
            (t0, src, v0), (t1, dst, v1) = evs[i], evs[i + 1]
            size = to_int(v1, to_int(v0, 0))
            yield typ, src, dst, t0, t1, size


def make_transfer(typ, src, dst, t0, t1, size, truncated):
    """A Transfer from a paired link; containers are '[<rank>_]mm<node>' or '<rank>_mpict'."""
    if typ == MPI_LINK_TYPE:
        ranks = tuple(to_int(c.split("_")[0], -1) for c in (src, dst))
        return Transfer(kind="mpi", link=typ, src=ranks[0], dst=ranks[1], ranks=ranks,
                        start=t0, end=t1, size=size, truncated=truncated)
    s, d = alias_rank_id(src), alias_rank_id(dst)
    if not s or not d:
        return None
    return Transfer(kind="memory_nodes", link=TRANSFER_LINK_TYPES[typ], src=(s[0], s[2]), dst=(d[0], d[2]), ranks=(s[0],),
                    start=t0, end=t1, size=size, truncated=truncated)


def build_transfers(paje, trace_start, notes):
    transfers = []
    if paje is None:
        return transfers
    for typ, src, dst, t0, t1, size in pair_links(paje.link_events):
        truncated = t0 <= 0.0 and trace_start is not None and trace_start > 0
        if truncated:
            t0 = min(trace_start, t1)
        tr = make_transfer(typ, src, dst, t0, t1, size, truncated)
        if tr is not None:
            transfers.append(tr)
    if any(t.truncated for t in transfers):
        notes.append("some transfers started before the trace: start clipped to trace start")
    return transfers


# ------------------------------------------------------------------ intervals

def merge(intervals):
    """Union of (start, end) intervals as a sorted list of disjoint intervals."""
    out = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            out[-1][1] = max(out[-1][1], e)
        else:
            out.append([s, e])
    return out


def covered(merged, starts, s, e):
    """Length of [s, e] covered by the merged intervals (starts = their starts)."""
    total, i = 0.0, max(bisect.bisect_right(starts, s) - 1, 0)
    while i < len(merged) and merged[i][0] < e:
        total += max(0.0, min(e, merged[i][1]) - max(s, merged[i][0]))
        i += 1
    return total


def busy_by_rank(tasks):
    by_rank = defaultdict(list)
    for t in tasks:
        by_rank[t.rank].append((t.start, t.end))
    return {r: merge(iv) for r, iv in by_rank.items()}


def overlap_fraction(transfers, busy):
    """Share of transfer time during which a worker of the involved rank(s) ran a task."""
    total = hidden = 0.0
    cache = {}   # set of ranks -> (merged busy intervals, their starts)
    for tr in transfers:
        ranks = frozenset(tr.ranks)
        if ranks not in cache:
            merged = merge(iv for r in ranks for iv in busy.get(r, []))
            cache[ranks] = (merged, [m[0] for m in merged])
        total += tr.end - tr.start
        hidden += covered(*cache[ranks], tr.start, tr.end)
    return (hidden / total) if total > 0 else None


# -------------------------------------------------------------------- summary

def pct(part, whole):
    return 100.0 * part / whole if whole and whole > 0 else None


def summarize_workers(tasks, workers, span, task_span):
    per = defaultdict(list)
    for t in tasks:
        per[(t.rank, t.worker)].append((t.start, t.end))
    rows = []
    for key in sorted(set(per) | set(workers)):
        info = workers.get(key, {})
        busy = sum(e - s for s, e in merge(per.get(key, [])))
        rows.append({
            "rank": key[0], "id": key[1],
            "name": info.get("name", "worker%d" % key[1]),
            "kind": info.get("kind", "?"), "tasks": len(per.get(key, [])),
            "busy_ms": busy, "busy_pct_trace": pct(busy, span),
            "busy_pct_tasks": pct(busy, task_span)})
    return rows


def summarize_codelets(tasks, workers):
    per = defaultdict(list)
    for t in tasks:
        per[t.name].append(t)
    rows = []
    for name, ts in per.items():
        durations = [t.end - t.start for t in ts]
        kinds = defaultdict(int)
        for t in ts:
            kinds[workers.get((t.rank, t.worker), {}).get("kind", "?")] += 1
        rows.append({"name": name, "count": len(ts), "total_ms": sum(durations),
                     "mean_ms": sum(durations) / len(ts), "min_ms": min(durations),
                     "max_ms": max(durations), "worker_kinds": dict(sorted(kinds.items()))})
    return sorted(rows, key=lambda r: -r["total_ms"])


def count_by(items, key):
    counts = defaultdict(int)
    for i in items:
        counts[key(i)] += 1
    return dict(sorted(counts.items()))


def node_label(rank, node, kinds):
    kind = kinds.get((rank, node))
    base = "%s(node%d)" % (kind, node) if kind else "node%d" % node
    return base if rank < 0 else "r%d:%s" % (rank, base)


def summarize_transfers(transfers, busy, kinds):
    out = {}
    for kind in ("memory_nodes", "mpi"):
        trs = [t for t in transfers if t.kind == kind]
        pairs = defaultdict(lambda: [0, 0])
        for t in trs:
            if kind == "mpi":
                label = "rank%d->rank%d" % (t.src, t.dst)
            else:
                label = "%s->%s" % (node_label(*t.src, kinds), node_label(*t.dst, kinds))
            pairs[label][0] += 1
            pairs[label][1] += t.size
        out[kind] = {
            "count": len(trs), "bytes": sum(t.size for t in trs),
            "time_ms": sum(t.end - t.start for t in trs),
            "overlap_fraction": overlap_fraction(trs, busy),
            "by_type": count_by(trs, lambda t: t.link),
            "by_pair": [{"pair": k, "count": c, "bytes": b}
                        for k, (c, b) in sorted(pairs.items())]}
    return out


# Tasks of the step marker submitted at most this many submissions apart belong to one step (one per
# tile, submitted in a loop); steps lie dozens of submissions apart.
SAME_STEP_SUBMISSIONS = 8


def steady_window(tasks, marker, steps, notes):
    """The tasks of the last `steps` complete steps: from the first start of the (steps+1)-th last
    step's tasks of the codelet `marker` (run once a step and tile, e.g. advector) to the first start
    of the last step's. A step's marker tasks are those submitted together (SubmitOrder), on the
    lowest rank (each rank numbers its own submissions)."""
    marked = [t for t in tasks if t.name == marker]
    if not marked:
        raise SystemExit("error: no task of %s" % marker)
    rank = min(t.rank for t in marked)
    marked = sorted((t for t in marked if t.rank == rank),
                    key=lambda t: (t.order if t.order is not None else -1, t.start))
    groups = []
    for t in marked:
        last = groups[-1][-1] if groups else None
        if last is not None and None not in (t.order, last.order) and t.order - last.order <= SAME_STEP_SUBMISSIONS:
            groups[-1].append(t)
        else:
            groups.append([t])
    if any(t.order is None for t in marked):
        notes.append("tasks.rec has no SubmitOrder: each %s task counted as a step" % marker)
    starts = sorted(min(t.start for t in g) for g in groups)
    if len(starts) < steps + 1:
        raise SystemExit("error: %d steps of %s; %d steps need %d" % (len(starts), marker, steps, steps + 1))
    lo, hi = starts[-steps - 1], starts[-1]
    notes.append("window: the %d steps between the last %d first starts of %s%s, %d task(s) a step (%.3f..%.3f ms)"
                 % (steps, steps + 1, marker, "" if rank < 0 else " on rank %d" % rank, len(groups[-1]), lo, hi))
    return [t for t in tasks if lo <= t.start < hi], (lo, hi)


def idle_before(tasks, workers, window):
    """Where the workers wait: each CUDA worker's idle time in the window (each CPU worker's where no
    CUDA worker ran a task), charged to the task that ended it (a gap before spectral_slab_passes is
    a transpose, before halo_unpack a strip in flight), in ms summed over those workers.

    Each gap is split at the task's ReadyTime (when its last dependency released it to the
    scheduler): before it the worker waited for a task (`dependency`, charged to the dependency that
    ended last, on this worker or another, when DependsOn names it); after it for the task's data to
    arrive and the scheduler (`data`)."""
    lo, hi = window
    by_job = {t.job: t for t in tasks if t.job is not None}  # JobIds carry their rank's prefix
    tasks = [t for t in tasks if t.end > lo and t.start < hi]  # a task running across lo is no wait
    kind_of = lambda t: workers.get((t.rank, t.worker), {}).get("kind")
    kind = "CUDA" if any(kind_of(t) == "CUDA" for t in tasks) else "CPU"
    per = defaultdict(list)
    for t in tasks:
        if kind_of(t) == kind:
            per[(t.rank, t.worker)].append(t)
    idle, dependency, data = defaultdict(float), defaultdict(float), defaultdict(float)
    waited_on = defaultdict(float)  # (task, its last dependency, "same worker" / "other worker")
    for run in per.values():
        prev = lo
        for t in sorted(run, key=lambda t: t.start):
            if t.start > prev:
                gap = t.start - prev
                idle[t.name] += gap
                if t.ready is not None:
                    on_deps = min(max(t.ready - prev, 0.0), gap)
                    dependency[t.name] += on_deps
                    data[t.name] += gap - on_deps
                    if on_deps > 0:
                        # The dependency that ended last, up to its end; past it (or with none in the
                        # trace) the task waited for what tasks.rec does not show: an MPI receive, or its push.
                        deps = [by_job[j] for j in t.deps if j in by_job]
                        last = max(deps, key=lambda d: d.end, default=None)
                        on_last = 0.0 if last is None else min(max(last.end - prev, 0.0), on_deps)
                        if on_last > 0:
                            where = "same worker" if last.worker == t.worker else "other worker"
                            waited_on[(t.name, last.name, where)] += on_last
                        if on_deps - on_last > 0:
                            waited_on[(t.name, "(after it: MPI receive or push latency)", "-")] += on_deps - on_last
            prev = max(prev, min(t.end, hi))
        if hi is not None and hi > prev:
            idle["(end of window)"] += hi - prev
    order = dict(sorted(idle.items(), key=lambda kv: -kv[1]))
    return {"kind": kind, "workers": len(per),
            "by_next_task_ms": order,
            "waiting_for_dependency_ms": {k: dependency[k] for k in order if k in dependency},
            "waiting_for_data_ms": {k: data[k] for k in order if k in data},
            "last_dependency_ms": [{"task": k[0], "last_dependency": k[1], "ran_on": k[2], "ms": v}
                                   for k, v in sorted(waited_on.items(), key=lambda kv: -kv[1])]}


def host_lead(tasks, marker, window):
    """How far the host's submission runs ahead of the workers, per rank: for each task of the step
    marker in the window, its start less its submission, in ms (median, min, count). Near 0 the
    workers wait for the host (a host blocked in round trips between ranks, say), not for data."""
    lo, hi = window
    per = defaultdict(list)
    for t in tasks:
        if t.name == marker and t.submit is not None and lo <= t.start < hi:
            per[t.rank].append(t.start - t.submit)
    out = []
    for rank in sorted(per):
        leads = sorted(per[rank])
        out.append({"rank": rank, "tasks": len(leads), "median_ms": leads[len(leads) // 2], "min_ms": leads[0]})
    return out


def build_summary(directory, notes, marker=None, steps=0):
    tasks, not_run = load_tasks(os.path.join(directory, "tasks.rec"), notes)
    load_push_times(os.path.join(directory, "sched_tasks.rec"), tasks)
    first, last, rec_tasks = scan_trace_rec(os.path.join(directory, "trace.rec"), notes)
    if not tasks and rec_tasks:
        notes.append("no executed task in tasks.rec: task intervals taken from trace.rec")
        tasks = rec_tasks
    window, all_tasks = (None, None), tasks
    if steps:
        tasks, (first, last) = steady_window(tasks, marker, steps, notes)
        window = (first, last)
    paje = parse_paje(os.path.join(directory, "paje.trace"), notes)
    workers = describe_workers(paje)
    transfers = build_transfers(paje, first, notes)
    t_start = min((t.start for t in tasks), default=None)
    t_end = max((t.end for t in tasks), default=None)
    if first is None:
        first, last = t_start, t_end
    span = (last - first) if first is not None else None
    task_span = (t_end - t_start) if t_start is not None else None
    busy = busy_by_rank(all_tasks)  # a transfer at the window's edge may overlap a task just outside it
    # With a step window, the transfers that started in it: start-up uploads and the final gathers
    # (whole fields to rank 0, overlapped with nothing) would otherwise swamp the steps' own.
    in_window = [t for t in transfers if window[0] <= t.start < window[1]] if steps else transfers
    if steps:
        notes.append("transfers: the %d that started in the window (of %d traced)" % (len(in_window), len(transfers)))
    summary = {
        "trace_dir": os.path.abspath(directory), "time_unit": "ms",
        "span": {"trace_start": first, "trace_end": last, "trace_span": span,
                 "task_start": t_start, "task_end": t_end, "task_span": task_span},
        "tasks_executed": len(tasks), "task_records_not_executed": not_run,
        "steps_in_window": steps or None,
        "workers": summarize_workers(tasks, workers, span, task_span),
        "codelets": summarize_codelets(tasks, workers),
        "transfers": summarize_transfers(in_window, busy, memnode_kinds(workers)),
        "idle": idle_before(all_tasks, workers, window) if steps else None,
        "host_lead": host_lead(all_tasks, marker, window) if steps else None,
        "notes": notes}
    return summary, tasks, transfers, workers


# ------------------------------------------------------------------- printing

def fmt(value, spec="%.3f", none="-"):
    return none if value is None else spec % value


def human_bytes(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return ("%d %s" % (n, unit)) if unit == "B" else ("%.2f %s" % (n, unit))
        n /= 1024.0


def print_table(headers, rows, align):
    """Print rows under headers; align has one 'l' or 'r' per column."""
    widths = [max([len(str(h))] + [len(str(r[i])) for r in rows])
              for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join((str(c).ljust(w) if a == "l" else str(c).rjust(w))
                         for c, w, a in zip(cells, widths, align)).rstrip()
    print(line(headers))
    print("-" * len(line(headers)))
    for r in rows:
        print(line(r))


def print_summary(s):
    sp = s["span"]
    print("Trace: %s" % s["trace_dir"])
    print("Traced span: %s ms (%s .. %s ms); task span: %s ms (%s .. %s ms)" % (
        fmt(sp["trace_span"]), fmt(sp["trace_start"]), fmt(sp["trace_end"]),
        fmt(sp["task_span"]), fmt(sp["task_start"]), fmt(sp["task_end"])))
    print("Tasks executed: %d (records that never ran on a worker: %d)\n" % (
        s["tasks_executed"], s["task_records_not_executed"]))
    print("Workers (busy = union of task intervals)")
    print_table(["worker", "kind", "rank", "tasks", "busy ms", "busy % trace", "busy % tasks"],
                [[w["name"], w["kind"], "-" if w["rank"] < 0 else w["rank"], w["tasks"],
                  fmt(w["busy_ms"]), fmt(w["busy_pct_trace"], "%.1f"),
                  fmt(w["busy_pct_tasks"], "%.1f")]
                 for w in s["workers"]], "llrrrrr")
    steps = s.get("steps_in_window") or 1
    if s.get("steps_in_window"):
        print("\nPer step: %.3f ms of trace (%d steps)" % (sp["trace_span"] / steps, steps))
    print("\nCodelets")
    print_table(["codelet", "count", "total ms", "ms/step (all workers)", "mean ms", "min ms", "max ms", "worker kinds"],
                [[c["name"], c["count"], fmt(c["total_ms"]), fmt(c["total_ms"] / steps), fmt(c["mean_ms"]),
                  fmt(c["min_ms"]), fmt(c["max_ms"]),
                  " ".join("%s:%d" % kv for kv in c["worker_kinds"].items())]
                 for c in s["codelets"]], "lrrrrrrl")
    idle = s.get("idle")
    if idle and idle["workers"]:
        g = idle["workers"]
        print("\nIdle, charged to the task that ended it (ms/step, mean over %d %s workers)" % (g, idle["kind"]))
        dep, data = idle.get("waiting_for_dependency_ms", {}), idle.get("waiting_for_data_ms", {})
        print("(split at the task's ReadyTime: waiting for a dependency to end / for its data and the scheduler)")
        print_table(["before", "ms/step", "dependency", "data"],
                    [[name, fmt(ms / g / steps), fmt(dep[name] / g / steps if name in dep else None),
                      fmt(data[name] / g / steps if name in data else None)]
                     for name, ms in idle["by_next_task_ms"].items()], "lrrr")
        waits = [w for w in idle.get("last_dependency_ms", []) if w["ms"] / g / steps >= 0.005]
        if waits:
            print("\nWaiting for a dependency: the one that ended last (ms/step, mean over the workers)")
            print_table(["task", "last dependency", "ran on", "ms/step"],
                        [[w["task"], w["last_dependency"], w["ran_on"], fmt(w["ms"] / g / steps)] for w in waits],
                        "lllr")
    if s.get("host_lead"):
        print("\nHost lead: how long before it started each step's first task was submitted (near 0: the")
        print("workers wait for the submitting thread, not for data)")
        print_table(["rank", "tasks", "median ms", "min ms"],
                    [["-" if h["rank"] < 0 else h["rank"], h["tasks"], fmt(h["median_ms"]), fmt(h["min_ms"])]
                     for h in s["host_lead"]], "rrrr")
    print_transfers(s["transfers"])
    for n in s["notes"]:
        print("note: %s" % n)


def print_transfers(transfers):
    titles = {"memory_nodes": "Transfers between memory nodes (PCIe/NVLink/disk)",
              "mpi": "MPI transfers between ranks"}
    for kind, title in titles.items():
        t = transfers[kind]
        print("\n%s: %d transfers, %s, %s ms in flight, overlapped with tasks: %s" % (
            title, t["count"], human_bytes(t["bytes"]), fmt(t["time_ms"]),
            fmt(None if t["overlap_fraction"] is None else 100 * t["overlap_fraction"],
                "%.1f %%", "n/a (none)")))
        if kind == "memory_nodes" and t["by_type"]:
            print("  by type: " + ", ".join("%s %d" % kv for kv in t["by_type"].items()))
        if t["by_pair"]:
            print_table(["from->to", "count", "bytes"],
                        [[p["pair"], p["count"], human_bytes(p["bytes"])] for p in t["by_pair"]],
                        "lrr")


# ---------------------------------------------------------------------- Gantt

def window_transfers(summary, transfers):
    """The transfers that started in the step window (the traced span of a --steps summary)."""
    lo = summary["span"]["trace_start"]
    hi = lo + summary["span"]["trace_span"]
    return [t for t in transfers if lo <= t.start < hi]


def gantt_window(tasks, transfers):
    """x range covering every task and transfer, or (None, None)."""
    items = list(tasks) + list(transfers)
    if not items:
        return None, None
    return min(i.start for i in items), max(i.end for i in items)


def gantt_rows(summary, transfers):
    rows = [((w["rank"], w["id"]), w["name"]) for w in summary["workers"]]
    kinds = sorted({transfer_row(t) for t in transfers})
    return rows + [(k, k) for k in kinds]


def transfer_row(t):
    if t.kind == "mpi":
        return "MPI transfers"
    return "transfers" if t.ranks[0] < 0 else "r%d transfers" % t.ranks[0]


def codelet_colours(summary, plt):
    names = [c["name"] for c in summary["codelets"]]
    cmap = plt.get_cmap("tab20" if len(names) > 10 else "tab10")
    return {n: cmap(i % cmap.N) for i, n in enumerate(names)}


TRANSFER_COLOURS = {"from RAM": "black", "to RAM": "0.55", "other transfer": "saddlebrown",
                    "MPI message": "purple"}


def transfer_direction(t, kinds):
    """Legend class of a transfer: from RAM (e.g. host to GPU), to RAM, other, MPI."""
    if t.kind == "mpi":
        return "MPI message"
    if kinds.get(t.src) == "RAM":
        return "from RAM"
    if kinds.get(t.dst) == "RAM":
        return "to RAM"
    return "other transfer"


def draw_gantt(summary, tasks, transfers, workers, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.patches import Patch
    except ImportError as e:
        print("note: no Gantt chart (matplotlib unavailable: %s)" % e)
        return False
    rows = gantt_rows(summary, transfers)
    index = {key: i for i, (key, _) in enumerate(rows)}
    colours = codelet_colours(summary, plt)
    fig, ax = plt.subplots(figsize=(14, 1.2 + 0.45 * max(len(rows), 1)))
    bars = defaultdict(list)
    for t in tasks:
        bars[(index.get((t.rank, t.worker)), t.name)].append((t.start, t.end - t.start))
    for (row, name), spans in bars.items():
        if row is not None:
            ax.broken_barh(spans, (row - 0.4, 0.8), facecolors=colours[name], linewidth=0)
    kinds = memnode_kinds(workers)
    tr_bars = defaultdict(list)
    for t in transfers:
        key = (index[transfer_row(t)], transfer_direction(t, kinds))
        tr_bars[key].append((t.start, max(t.end - t.start, 1e-6)))
    for (row, direction), spans in tr_bars.items():
        ax.broken_barh(spans, (row - 0.4, 0.8), facecolors=TRANSFER_COLOURS[direction],
                       alpha=0.7, linewidth=0)
    directions = sorted({d for _, d in tr_bars})
    decorate_gantt(ax, summary, rows, gantt_window(tasks, transfers), directions, colours, Patch)
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    plt.close(fig)
    return True


def decorate_gantt(ax, summary, rows, window, directions, colours, Patch):
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for _, label in rows])
    ax.invert_yaxis()
    lo, hi = window
    if lo is not None:
        pad = 0.01 * (hi - lo or 1.0)
        ax.set_xlim(lo - pad, hi + pad)
    ax.set_xlabel("time (ms since trace origin)")
    ax.set_title("%s: %d tasks" % (os.path.basename(summary["trace_dir"]),
                                   summary["tasks_executed"]))
    handles = [Patch(color=c, label=n) for n, c in colours.items()]
    handles += [Patch(color=TRANSFER_COLOURS[d], alpha=0.7, label=d) for d in directions]
    if handles:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.005, 1.0),
                  fontsize="small", frameon=False)
    ax.grid(axis="x", alpha=0.3)


# ----------------------------------------------------------------------- main

def main(argv=None):
    ap = argparse.ArgumentParser(description="Summarise a starpu_fxt_tool output directory.")
    ap.add_argument("dir")
    ap.add_argument("--png", help="Gantt chart path (default DIR/gantt.png)")
    ap.add_argument("--json", help="summary path (default DIR/trace_summary.json)")
    ap.add_argument("--steps", type=int, default=0,
                    help="only the last N complete steps (split at the tasks of --step-codelet)")
    ap.add_argument("--step-codelet", default="advector", help="a codelet that runs once per step")
    args = ap.parse_args(argv)
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)   # quiet exit under `| head`
    if not os.path.isdir(args.dir):
        print("error: %s is not a directory" % args.dir, file=sys.stderr)
        return 2
    summary, tasks, transfers, workers = build_summary(args.dir, [], args.step_codelet, args.steps)
    if not tasks:
        summary["notes"].append("no executed task found")
    print_summary(summary)
    json_path = args.json or os.path.join(args.dir, "trace_summary.json")
    with open(json_path, "w") as f:
        json.dump(summary, f, indent=1)
    print("\nsummary: %s" % json_path)
    if args.steps:  # the window's tasks, small enough to keep where the raw trace is not
        csv_path = os.path.join(args.dir, "window_tasks.csv")
        lo = summary["span"]["trace_start"]
        with open(csv_path, "w") as f:
            f.write("rank,worker,codelet,job,ready_ms,start_ms,end_ms,depends_on\n")
            for t in sorted(tasks, key=lambda t: (t.rank, t.worker, t.start)):
                f.write("%d,%d,%s,%s,%s,%.4f,%.4f,%s\n" % (
                    t.rank, t.worker, t.name, t.job or "", "" if t.ready is None else "%.4f" % (t.ready - lo),
                    t.start - lo, t.end - lo, " ".join(t.deps)))
        print("tasks:   %s (times from the window's start)" % csv_path)
        csv_path = os.path.join(args.dir, "window_transfers.csv")
        with open(csv_path, "w") as f:
            f.write("kind,link,source,destination,bytes,start_ms,end_ms\n")
            for t in sorted(window_transfers(summary, transfers), key=lambda t: t.start):
                f.write("%s,%s,%s,%s,%d,%.4f,%.4f\n" % (t.kind, t.link, "_".join(map(str, t.src if isinstance(t.src, tuple) else (t.src,))),
                                                        "_".join(map(str, t.dst if isinstance(t.dst, tuple) else (t.dst,))),
                                                        t.size or 0, t.start - lo, t.end - lo))
        print("transfers: %s" % csv_path)
    png = args.png or os.path.join(args.dir, "gantt.png")
    if not tasks and not transfers:
        print("note: nothing to draw, no Gantt chart")
    elif draw_gantt(summary, tasks, window_transfers(summary, transfers) if args.steps else transfers, workers, png):
        print("gantt:   %s" % png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
