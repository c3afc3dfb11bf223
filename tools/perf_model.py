#!/usr/bin/env python3
"""Paper 003's performance model (Rojek & Wyrzykowski 2016, eq. 2-4) for taskdycore.

Predicts ms/step of MPDATA (`bench mpdata --overlap on`) and of the dynamical core (Taylor-Green or
the bubble, spectral or multigrid preconditioner) on N GPUs, one process per node or one rank per GPU,
from measured single-GPU step times and link figures (tools/perf_model_calibration.json), and finds the
GPU / node count past which adding more stops paying.

  tools/perf_model.py predict --case mpdata --grid 512x256x256 --gpus 2
  tools/perf_model.py scan --case tg-spectral --grid 256x256x256 --weak --max-gpus 16
  tools/perf_model.py validate            # prediction next to every measured 2- and 4-GPU point

The model (docs/performance.md, "Performance model (paper 003)"):
  T = T_comp + T_serial + T_comm - T_overlap
  T_comp    per-GPU work of its tiles, from the 1-GPU step times (piecewise linear in cells)
  T_serial  the spectral preconditioner's hub: the dense solve of the whole grid on one GPU
  T_comm    halo strips (width 3) plus the hub's whole-tile transfers; NVLink within a process,
            host-staged StarPU-MPI between ranks, plus a latency per dependent hop
  T_overlap communication hidden behind computation. Paper eq. 2-4:
            H = (T1_I - T1_B) / T1_I            (eq. 4: cost of the border/body split, on 1 GPU)
            T_IC = T_I - T_I * H                (eq. 3: improved time without that cost)
            V = T_O / T_I, T_O = T_B - T_IC     (eq. 2: overlap share)
Python 3 standard library only.
"""
import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CAL = os.path.join(HERE, "perf_model_calibration.json")
CASES = ("mpdata", "tg-spectral", "bubble", "tg-multigrid")
B = 8.0  # bytes a value (FP64)
C256 = 256 ** 3


def parse_grid(s):
    try:
        n = tuple(int(v) for v in s.lower().split("x"))
    except ValueError:
        n = ()
    if len(n) != 3 or min(n) <= 0:
        raise argparse.ArgumentTypeError("grid must be NXxNYxNZ, e.g. 512x256x256")
    return n


def tile_pair(s):
    t = parse_grid(s + "x1")
    return t[0], t[1]


def cells(g):
    return g[0] * g[1] * g[2]


def default_tiles(n):
    """Tiles tx x ty = n, one a GPU, tx >= ty, as square as possible (2 -> 2x1, 4 -> 2x2, 8 -> 4x2)."""
    ty = int(math.isqrt(n))
    while n % ty:
        ty -= 1
    return n // ty, ty


def interp(points, x):
    """Piecewise linear through (x, y) points; beyond the ends, the end segment extended."""
    pts = sorted(points)
    if len(pts) == 1:
        return pts[0][1] * x / pts[0][0]
    i = 0
    while i < len(pts) - 2 and x > pts[i + 1][0]:
        i += 1
    (x0, y0), (x1, y1) = pts[i], pts[i + 1]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def solve2(a11, a12, b1, a21, a22, b2):
    det = a11 * a22 - a12 * a21
    return (b1 * a22 - a12 * b2) / det, (a11 * b2 - a21 * b1) / det


class Layout:
    """Tiles on GPUs on ranks on nodes: tile i (row-major) on GPU i % gpus, GPUs in contiguous runs
    per rank (owner computes), ranks in contiguous runs per node. Rank 0's first GPU is the hub."""

    def __init__(self, grid, gpus, tiles, gpus_per_node, ranks_per_node):
        self.grid, self.gpus = grid, gpus
        self.tx, self.ty = tiles
        if grid[0] % self.tx or grid[1] % self.ty:
            raise ValueError("grid %dx%dx%d does not split into %dx%d tiles" % (grid + tiles))
        self.ntiles = self.tx * self.ty
        if self.ntiles < gpus:
            raise ValueError("fewer tiles (%d) than GPUs (%d)" % (self.ntiles, gpus))
        if gpus_per_node % ranks_per_node:
            raise ValueError("GPUs a node (%d) not divisible by ranks a node (%d)" % (gpus_per_node, ranks_per_node))
        self.gpus_per_rank = gpus_per_node // ranks_per_node
        self.ranks_per_node = ranks_per_node
        self.nodes = -(-gpus // gpus_per_node)
        self.ranks = -(-gpus // self.gpus_per_rank)
        self.tile_nx, self.tile_ny, self.nz = grid[0] // self.tx, grid[1] // self.ty, grid[2]
        self.tile_cells = self.tile_nx * self.tile_ny * self.nz
        per = -(-self.ntiles // gpus)  # contiguous runs of tiles per GPU
        self.gpu_of_tile = [min(t // per, gpus - 1) for t in range(self.ntiles)]

    def rank(self, gpu):
        return gpu // self.gpus_per_rank

    def node(self, gpu):
        return self.rank(gpu) // self.ranks_per_node

    def link(self, g1, g2):
        if g1 == g2:
            return "self"
        if self.rank(g1) == self.rank(g2):
            return "nvlink"
        if self.node(g1) == self.node(g2):
            return "staged"
        return "network"

    def tiles_on(self, gpu):
        return [t for t in range(self.ntiles) if self.gpu_of_tile[t] == gpu]

    def faces(self, t):
        """(neighbour tile, strip cells) of tile t's 4 faces, periodic; strip cells per unit width."""
        i, j = t % self.tx, t // self.tx
        out = []
        for di, dj, edge in ((-1, 0, self.tile_ny), (1, 0, self.tile_ny), (0, -1, self.tile_nx), (0, 1, self.tile_nx)):
            n = ((i + di) % self.tx) + ((j + dj) % self.ty) * self.tx
            out.append((n, edge * self.nz))
        return out


class Model:
    def __init__(self, cal, fitted=True):
        self.cal = cal
        L = cal["links"]
        self.bw = {"nvlink": L["nvlink_GBps"]["value"], "pcie": L["pcie_GBps"]["value"],
                   "internode": L["internode_GBps"]["value"]}
        self.lat_nv = L["nvlink_latency_us"]["value"] * 1e-3  # ms
        self._mpdata()
        self._spectral()
        self._multigrid()
        if not fitted:  # links at their published / typical figures, no term fitted on a multi-GPU run
            self.bw["hub"] = self.bw["nvlink"]
            self.bw["staged"] = self.bw["pcie"] / 2        # device -> host, host -> device
            self.lat_mpi = self.lat_nv
            self.mg_over = 0.0

    # ---- calibration ----------------------------------------------------------------------------
    def _mpdata(self):
        m = self.cal["mpdata"]
        self.w = m["halo_width"]
        pts = {(p["tiles"], p["overlap"]): p for p in m["one_gpu"]}
        off, on1, on4 = pts[("1x1", "off")], pts[("1x1", "on")], pts[("2x2", "on")]
        g = parse_grid(on1["grid"])
        self.m_a = off["ms"] / cells(g)                       # ms a cell, one kernel set (basic)
        p1 = 2 * (g[0] + g[1]) * g[2]                          # perimeter cells, 1 tile
        p4 = 4 * 2 * (g[0] // 2 + g[1] // 2) * g[2]            # 4 tiles
        base = self.m_a * cells(g)
        # T_on = a*cells + k*c_tile + b*perimeter: per-tile launches and the border bands' recompute
        self.m_ctile, self.m_b = solve2(1, p1, on1["ms"] - base, 4, p4, on4["ms"] - base)
        self.m_H = (on1["ms"] - off["ms"]) / on1["ms"]        # eq. 4

    def _spectral(self):
        s = self.cal["dycore_spectral"]
        self.s_pts = [(cells(parse_grid(p["grid"])), p["ms"]) for p in s["one_gpu"]]
        self.s1 = s["spectral_in_place_ms_at_256cubed"] / C256
        self.halo_exch = s["halo_exchanges_per_step"]
        self.halo_fields = s["halo_fields_per_step"]
        self.reductions = s["reductions_per_step"]
        self.bubble = s["bubble_over_tg"]
        tr = s["hub_trace_2gpu"]
        g = parse_grid(tr["grid"])
        lay = Layout(g, tr["gpus"], tile_pair(tr["tiles"]), 8, 1)
        self.V_o = tr["overlapped_fraction"]
        own0 = self.own(lay.tile_cells)
        busy0 = tr["gpu_busy"][0] * tr["ms"]
        self.s_hub = (busy0 - own0) / cells(g)               # hub work, ms a cell of the whole grid
        halo_t, halo_bytes = self.halo(lay, self.halo_fields, self.halo_exch, 0)
        bytes_step = tr["bytes_moved_gib"] * 2 ** 30 / tr["steps"]
        remote_cells = sum(lay.tile_cells for t in range(lay.ntiles) if lay.gpu_of_tile[t] != 0)
        self.k_hub = (bytes_step - halo_bytes) / (remote_cells * B)   # tile arrays a step, hub <-> GPU
        idle0 = tr["ms"] - busy0
        xfer = (idle0 - halo_t) / (1 - self.V_o)
        self.bw["hub"] = (bytes_step - halo_bytes) / xfer * 1e-6      # GB/s effective
        rt = s["rank_trace_2ranks_64"]
        self.k_dense = rt["dense_arrays_rank0_to_rank1_per_step"]
        self.k_gather = rt["tile_arrays_rank1_to_rank0_per_step"]
        self.hops = self.halo_exch + 2 * self.reductions  # dependent MPI hops a step (reported)
        # two ranks, one GPU each: the prediction is linear in 1/BW_staged and the MPI latency; solve the
        # two measured points for both (two equations, two unknowns: these points are fits, not checks)
        rows = []
        for p in s["two_ranks"]:
            g = parse_grid(p["grid"])
            ev = []
            for inv, lat in ((1e-3, 0.0), (2e-3, 0.0), (1e-3, 1.0)):
                self.bw["staged"], self.lat_mpi = 1.0 / inv, lat
                ev.append(self.predict("tg-spectral", g, p["ranks"], tile_pair(p["tiles"]), p["ranks"], p["ranks"])["total"])
            d_inv, d_lat = (ev[1] - ev[0]) / 1e-3, ev[2] - ev[0]
            rows.append((d_inv, d_lat, p["ms"] - (ev[0] - d_inv * 1e-3)))
        inv_bw, self.lat_mpi = solve2(rows[0][0], rows[0][1], rows[0][2], rows[1][0], rows[1][1], rows[1][2])
        self.bw["staged"] = 1.0 / inv_bw

    def _multigrid(self):
        mg = self.cal["dycore_multigrid"]
        self.mg_iters = [(cells(parse_grid(p["grid"])), p["iterations"]) for p in mg["one_gpu"]]
        self.mg_it = [(c, (next(p["ms"] for p in mg["one_gpu"] if cells(parse_grid(p["grid"])) == c) - self.own(c)) / it)
                      for c, it in self.mg_iters]
        self.mg_red = mg["reductions_per_iteration"]
        self.mg_over = 0.0
        fp = mg["multitile_fit_point"]
        g = parse_grid(fp["grid"])
        r = self.predict("tg-multigrid", g, fp["gpus"], tile_pair(fp["tiles"]), 8, 1, fp["iterations"])
        self.mg_over_fit_from = r["total"]
        self.mg_over = (fp["ms"] - r["total"]) / fp["iterations"]

    # ---- terms ----------------------------------------------------------------------------------
    def own(self, c):
        """Per-GPU dycore work of a tile of c cells without the spectral solve (1-GPU times)."""
        return interp(self.s_pts, c) - self.s1 * c

    def link_bw(self, kind):
        if kind == "network":
            return min(self.bw["staged"], self.bw["internode"])
        return self.bw["nvlink" if kind == "nvlink" else "staged"]

    def link_lat(self, kind):
        return self.lat_nv if kind == "nvlink" else self.lat_mpi

    def halo(self, lay, fields, exchanges, gpu):
        """Strip traffic of one GPU a step: (ms, bytes). Strips of all faces travel concurrently;
        each exchange pays the slowest link's latency once."""
        per_kind = {}
        for t in lay.tiles_on(gpu):
            for n, c in lay.faces(t):
                k = lay.link(gpu, lay.gpu_of_tile[n])
                if k != "self":
                    per_kind[k] = per_kind.get(k, 0.0) + fields * self.w * c * B
        if not per_kind:
            return 0.0, 0.0
        t = max(b / self.link_bw(k) * 1e-6 for k, b in per_kind.items())
        t += exchanges * max(self.link_lat(k) for k in per_kind)
        return t, sum(per_kind.values())

    def iterations(self, case, grid, given):
        if given:
            return given, "given"
        c = cells(grid)
        near = min(self.mg_iters, key=lambda p: abs(math.log(p[0] / c)))
        return near[1], "from the 1-GPU calibration grid nearest in cells (%d cells); pass --iterations" % near[0]

    # ---- prediction -----------------------------------------------------------------------------
    def predict(self, case, grid, gpus, tiles=None, gpus_per_node=8, ranks_per_node=1, iterations=None,
                scatter="whole"):
        tiles = tiles or default_tiles(gpus)
        lay = Layout(grid, gpus, tiles, gpus_per_node, ranks_per_node)
        r = {"case": case, "grid": grid, "gpus": gpus, "tiles": tiles, "ranks": lay.ranks, "nodes": lay.nodes,
             "serial": 0.0, "notes": []}
        if case == "mpdata":
            return self._predict_mpdata(lay, r)
        return self._predict_dycore(case, lay, r, iterations, scatter)

    def _predict_mpdata(self, lay, r):
        worst = None
        for g in range(lay.gpus):
            ts = lay.tiles_on(g)
            n = len(ts) * lay.tile_cells
            perim = len(ts) * 2 * (lay.tile_nx + lay.tile_ny) * lay.nz
            comp_B = self.m_a * n                                  # basic: one kernel set
            comp_I = comp_B + len(ts) * self.m_ctile + self.m_b * perim  # improved: border + body
            comm, _ = self.halo(lay, 1, 1, g)
            T_B = comp_B + comm                                    # basic: strips after the step
            exposed = max(0.0, comm - comp_B)                      # improved: strips travel during body
            T_I = comp_I + exposed
            if worst is None or T_I > worst[0]:
                worst = (T_I, T_B, comp_I, comm, exposed)
        T_I, T_B, comp, comm, exposed = worst
        T_IC = T_I - T_I * self.m_H                                # eq. 3
        T_O = T_B - T_IC                                           # eq. 2
        r.update(comp=comp, comm=comm, overlap=comm - exposed, total=T_I, basic=T_B,
                 H=self.m_H, V=T_O / T_I)
        return r

    def _predict_dycore(self, case, lay, r, iterations, scatter="whole"):
        C = cells(lay.grid)
        scale = self.bubble if case == "bubble" else 1.0
        mg = case == "tg-multigrid"
        if mg:
            its, how = self.iterations(case, lay.grid, iterations)
            r["iterations"] = its
            if how != "given":
                r["notes"].append("iterations %d %s" % (its, how))
        if lay.ntiles == 1:                                       # the single-tile path, no hub
            if mg:
                comp = self.own(C) + its * interp(self.mg_it, C)
            else:
                comp = scale * interp(self.s_pts, C)
            r.update(comp=comp, comm=0.0, overlap=0.0, total=comp, V=0.0)
            return r
        hub = 0
        own = self.own(len(lay.tiles_on(hub)) * lay.tile_cells)
        halo_t, _ = self.halo(lay, self.halo_fields, self.halo_exch, hub)
        for g in range(lay.gpus):  # the slowest GPU's halo (strips to other ranks cost more)
            halo_t = max(halo_t, self.halo(lay, self.halo_fields, self.halo_exch, g)[0])
        lat = 0.0
        if lay.ranks > 1:
            lat = 2 * self.reductions * self.lat_mpi
        if mg:
            it_t = interp(self.mg_it, lay.tile_cells * len(lay.tiles_on(hub))) + self.mg_over
            h_it = 0.0
            for g in range(lay.gpus):
                levels = max(1, int(math.log2(min(lay.tile_nx, lay.tile_ny, lay.nz))) - 2)
                t, _ = self.halo(lay, 2, 2 * levels + 3, g)  # V-cycle halos: coarser levels ~ one more strip
                h_it = max(h_it, t)
            if lay.ranks > 1:
                h_it += 2 * self.mg_red * self.lat_mpi
            comp = scale * (own + its * it_t)
            comm = halo_t + lat + its * h_it
            serial = 0.0
            xfer = 0.0
        else:
            comp = scale * own
            serial = scale * self.s_hub * C                      # dense solve of the whole grid, hub GPU
            xfer = 0.0
            for g in range(1, lay.gpus):                          # whole tiles to and from the hub
                kind = lay.link(hub, g)
                tc = len(lay.tiles_on(g)) * lay.tile_cells
                if kind == "nvlink":
                    xfer += self.k_hub * tc * B / self.bw["hub"] * 1e-6
            for rk in range(1, lay.ranks):                        # the dense array to every rank, serial at rank 0
                g = rk * lay.gpus_per_rank
                kind = lay.link(hub, g)
                tc = sum(len(lay.tiles_on(x)) for x in range(g, min(g + lay.gpus_per_rank, lay.gpus))) * lay.tile_cells
                back = C if scatter == "whole" else tc  # commit 5bac01b: only the rank's tiles go back
                xfer += (self.k_dense * back + self.k_gather * tc) * B / self.link_bw(kind) * 1e-6
            comm = halo_t + lat + xfer
        hidden = self.V_o * (comm - lat)
        total = comp + serial + comm - hidden
        T_B = comp + serial + comm
        r.update(comp=comp, serial=serial, comm=comm, overlap=hidden, total=total, basic=T_B,
                 V=hidden / total, hub_xfer=xfer)
        return r


# ---- output -------------------------------------------------------------------------------------
def gs(g):
    return "x".join(str(v) for v in g)


def print_prediction(r):
    print("case %s  grid %s  gpus %d  tiles %dx%d  ranks %d  nodes %d" % (
        r["case"], gs(r["grid"]), r["gpus"], r["tiles"][0], r["tiles"][1], r["ranks"], r["nodes"]))
    print("computation_ms      %9.3f" % r["comp"])
    print("serial_ms           %9.3f   (spectral hub: dense solve of the whole grid on one GPU)" % r["serial"])
    print("communication_ms    %9.3f" % r["comm"])
    print("overlap_ms          %9.3f   (V = T_O / T_I = %.3f)" % (r["overlap"], r["V"]))
    if "H" in r:
        print("split_overhead_H    %9.3f   (eq. 4)   basic (overlap off) %.3f ms" % (r["H"], r["basic"]))
    if "iterations" in r:
        print("iterations          %9d" % r["iterations"])
    for n in r["notes"]:
        print("note: " + n)
    print("predicted_ms_per_step %.3f" % r["total"])


def cmd_predict(m, a):
    tiles = tile_pair(a.tiles) if a.tiles else None
    r = m.predict(a.case, a.grid, a.gpus, tiles, a.gpus_per_node, a.ranks_per_node, a.iterations, a.scatter)
    print_prediction(r)


def cmd_scan(m, a):
    rows = []
    print("# %s, %s scaling, grid %s%s, %d GPUs a node, %d ranks a node" % (
        a.case, "weak" if a.weak else "strong", gs(a.grid), " a GPU" if a.weak else "", a.gpus_per_node, a.ranks_per_node))
    print("%5s %6s %6s %14s %11s %10s %9s %9s %7s %11s %10s" % (
        "gpus", "nodes", "tiles", "grid", "ms/step", "comp", "serial", "comm", "V", "Gcell/s", "efficiency"))
    base, err = None, ValueError("no GPU count in 1..%d fits" % a.max_gpus)
    for n in range(1, a.max_gpus + 1):
        tx, ty = default_tiles(n)
        g = (a.grid[0] * tx, a.grid[1] * ty, a.grid[2]) if a.weak else a.grid
        try:
            r = m.predict(a.case, g, n, (tx, ty), a.gpus_per_node, a.ranks_per_node, a.iterations, a.scatter)
        except ValueError as e:
            err = e
            continue
        rate = cells(g) / r["total"] * 1e-6
        if base is None:
            base = rate
        eff = rate / (base * n)
        rows.append((n, r, rate))
        print("%5d %6d %6s %14s %11.3f %10.3f %9.3f %9.3f %7.3f %11.2f %10.2f" % (
            n, r["nodes"], "%dx%d" % (tx, ty), gs(g), r["total"], r["comp"], r["serial"], r["comm"], r["V"], rate, eff))
    if not rows:
        raise err
    best = max(rows, key=lambda x: x[2])
    if best[0] == rows[-1][0] and len(rows) > 1:
        print("best_gpus >= %d (Gcell/s still rising at the largest count scanned)" % best[0])
    else:
        print("best_gpus %d (highest Gcell/s %.2f; past it adding GPUs stops paying)" % (best[0], best[2]))
    gpn = a.gpus_per_node
    node_rows = [(r["nodes"], rate) for n, r, rate in rows if n % gpn == 0]
    if len(node_rows) < 2:
        print("stops_paying_nodes n/a (the scan covers one node of %d GPUs; pass --max-gpus %d or more)" % (gpn, 2 * gpn))
    else:
        bn = max(node_rows, key=lambda x: x[1])[0]
        if bn == node_rows[-1][0]:
            print("stops_paying_nodes > %d (Gcell/s still rising at the largest node count scanned)" % bn)
        else:
            print("stops_paying_nodes %d (adding nodes past %d lowers Gcell/s)" % (bn, bn))
    cross = next((n for n, r, _ in rows if r["comm"] - r["overlap"] >= r["comp"]), None)
    print("comm_exceeds_comp_at_gpus %s (paper 003's point: communication no longer hidden behind computation)"
          % (cross if cross else "none in range"))


def validation_points(cal):
    for p in cal["validation_2gpu"]["points"]:
        yield p, "2-GPU, this build"
    for p in cal["cross_checks_previous_build"]["points"]:
        yield p, "4-GPU, previous build (cross-check)"


def cmd_validate(m, a):
    cal = m.cal
    prior = Model(cal, fitted=False)
    fits = {("tg-spectral", "512x256x256", 1, 2): "fit: hub rate and work from its trace",
            ("tg-multigrid", "512x256x256", 1, 2): "fit: multi-tile V-cycle overhead",
            ("tg-spectral", "64x64x64", 2, 2): "fit: staged rate + MPI latency",
            ("tg-spectral", "512x256x256", 2, 2): "fit: staged rate + MPI latency"}
    print("%-13s %-12s %5s %5s %6s %10s %10s %8s %10s %8s  %s" % (
        "case", "grid", "gpus", "ranks", "tiles", "measured", "predicted", "error", "published", "error", "kind"))
    for p, kind in validation_points(cal):
        g = parse_grid(p["grid"])
        rpn = p.get("ranks_per_node", 1)
        r = m.predict(p["case"], g, p["gpus"], tile_pair(p["tiles"]), p["gpus"], rpn, p.get("iterations"))
        err = (r["total"] - p["ms"]) / p["ms"]
        q = prior.predict(p["case"], g, p["gpus"], tile_pair(p["tiles"]), p["gpus"], rpn, p.get("iterations"))["total"]
        k = fits.get((p["case"], p["grid"], rpn, p["gpus"]), "check" if "previous" not in kind else kind)
        if k.startswith("check") and "previous" not in kind:
            k = "check" + ("" if abs(err) <= 0.15 else ": MISSES 15 %")
        print("%-13s %-12s %5d %5d %6s %10.2f %10.2f %+7.1f%% %10.2f %+7.1f%%  %s" % (
            p["case"], p["grid"], p["gpus"], r["ranks"], p["tiles"], p["ms"], r["total"], 100 * err,
            q, 100 * (q - p["ms"]) / p["ms"], k))
    print("# derived: MPDATA H = %.3f, c_tile = %.3f ms, border band %.3f ms at 256^3; hub: %.2f tile arrays a step at %.0f GB/s, "
          "dense solve %.2f ms at 256^3; ranks: staged %.2f GB/s, MPI latency %.3f ms a hop (%d hops a step); "
          "multigrid multi-tile overhead %.2f ms an iteration" % (
              m.m_H, m.m_ctile, m.m_b * 2 * 512 * 256, m.k_hub, m.bw["hub"], m.s_hub * C256,
              m.bw["staged"], m.lat_mpi, m.hops, m.mg_over))
    print("# 'published': the same model with the links at their published / typical figures (hub at NVLink %.0f GB/s, "
          "ranks at PCIe %.0f GB/s twice, %.0f us a hop) and no multi-tile multigrid overhead: nothing fitted on a "
          "multi-GPU run" % (prior.bw["hub"], prior.bw["pcie"], prior.lat_mpi * 1e3))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="perf_model.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See docs/performance.md, 'Performance model (paper 003)'.")
    ap.add_argument("--calibration", default=DEFAULT_CAL, help="calibration JSON (default: %(default)s)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--case", choices=CASES, required=True,
                       help="mpdata (bench mpdata --overlap on), tg-spectral, bubble (as tg-spectral, scaled), tg-multigrid")
        p.add_argument("--grid", type=parse_grid, required=True, help="NXxNYxNZ (scan --weak: a GPU's share)")
        p.add_argument("--gpus-per-node", type=int, default=8, help="GPUs in a node (default 8)")
        p.add_argument("--ranks-per-node", type=int, default=1,
                       help="1: one process drives the node's GPUs (NVLink); = GPUs a node: one rank a GPU (default 1)")
        p.add_argument("--iterations", type=int, help="solver iterations a step (tg-multigrid)")
        p.add_argument("--scatter", choices=("whole", "tiles"), default="whole",
                       help="spectral hub across ranks: whole = the dense array goes to every rank (the calibrated "
                            "build); tiles = only each rank's tiles go back (commit 5bac01b, not yet measured)")
        p.add_argument("--calibration", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    p = sub.add_parser("predict", help="ms/step for one configuration, with the model's terms")
    common(p)
    p.add_argument("--gpus", type=int, required=True)
    p.add_argument("--tiles", help="TXxTY (default: one tile a GPU, as square as possible)")
    p = sub.add_parser("scan", help="table over 1..max GPUs and where adding GPUs / nodes stops paying")
    common(p)
    p.add_argument("--max-gpus", type=int, default=16)
    p.add_argument("--weak", action="store_true", help="--grid is a GPU's share (weak scaling); else the whole grid")
    sub.add_parser("validate", help="predictions next to the measured 2-GPU points and 4-GPU cross-checks")
    a = ap.parse_args(argv)
    with open(a.calibration) as f:
        m = Model(json.load(f))
    try:
        {"predict": cmd_predict, "scan": cmd_scan, "validate": cmd_validate}[a.cmd](m, a)
    except ValueError as e:
        print("perf_model.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
