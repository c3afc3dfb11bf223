#!/usr/bin/env python3
"""Paper 003's performance model (Rojek & Wyrzykowski 2016, eq. 2-4) for taskdycore.

Predicts ms/step of MPDATA (`bench mpdata --overlap on`) and of the dynamical core (Taylor-Green or
the bubble, spectral or multigrid preconditioner) on N GPUs, one process per node or one rank per GPU,
from measured single-GPU step times and link figures (tools/perf_model_calibration.json), and finds the
GPU / node count past which adding more stops paying.

  tools/perf_model.py predict --case mpdata --grid 256x512x256 --gpus 2
  tools/perf_model.py scan --case tg-spectral --grid 256x256x256 --weak --max-gpus 16
  tools/perf_model.py predict --case bubble --grid 256x1024x256 --gpus 4 --ranks-per-node 4 --mpi staged
  tools/perf_model.py predict --case bubble --grid 256x1024x256 --gpus 4 --solver pcg
  tools/perf_model.py validate            # prediction next to every measured multi-GPU point

Solver forms (--solver) of the spectral cases (tg-spectral, bubble):
  direct  (default: the cases' solver.method) p = A^+ f, the spectral inverse once a step straight
          from the right-hand side: no reduction and no PCG pass on the step's path (its check,
          elliptic_residual_max, runs at low priority after the pressure gradient); its own 1-GPU
          times, halo counts and width and stage factor (calibration: dycore_direct)
  pcg     PCG with the spectral preconditioner: its reductions (PCG start, 2 a pass) on the path
          (calibration: dycore_spectral); tg-multigrid is always PCG

How ranks move data (--mpi, with more than one rank; validation points say "mpi", none = staged):
  cuda    (default) the TASKDYCORE_MPI=cuda build: StarPU-MPI sends from GPU memory, CUDA IPC over
          NVLink between the ranks of a node, so pieces and strips cross at NVLink's effective rate
          (links.cuda_rank_GBps, null: that rate) and between nodes at links.internode_GBps
  staged  the default build: through host memory at links.staged_rank_GBps (3.3 GB/s)
  Both pay links.rank_latency_us a dependent StarPU-MPI hop; reductions over ranks take the
  measured 2-rank latency.

The model (docs/performance.md, "Performance model (paper 003)"), on the slowest GPU:
  T = T_comp + T_stages + T_comm - T_overlap
  T_comp    the GPU's work without the spectral solve, from the 1-GPU step times of the solver form
            (piecewise linear in cells) less the 1-GPU solve; multigrid: plus iterations x the
            per-iteration time
  T_stages  spectral preconditioner in slab form: the GPU's share of the solve (its tiles' and slabs'
            passes), stage_overhead_factor x the 1-GPU solve time of those cells (a factor fitted
            for each solver form)
  T_comm    transposes: applications a step x transposes a solve (2: the modelled cases' vertical
            operators are transforms; 4 in the level flow of builds before e6d0c38) x the
            pieces a GPU sends to other GPUs' slabs / link rate (NVLink within a process, --mpi
            between ranks); with split chains (tiles 1 x G, G a power of two up to 16: no slabs,
            no transposes) the chains' ends every tile sends every other, 2 x 2 doubles a column
            (--flow slabs: the column slabs instead, as TASKDYCORE_SPECTRAL_SPLIT_CHAINS=off and
            every build before split chains ran); halo strips of the form's fields and width (fields x width x face
            cells x 8 B: PCG and MPDATA width 3, the direct form's computed rings width 4), one
            latency an exchange (a pack-and-unpack task chain); reductions x their added latency
            (PCG only)
  T_overlap MPDATA only (paper eq. 2-4): strips hidden behind the body.
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
SOLVERS = ("direct", "pcg")
MPIS = ("cuda", "staged")  # how ranks move data: GPU memory over NVLink, or through host memory
B = 8.0  # bytes a value (FP64)
C256 = 256 ** 3
MAX_SLAB_PIECES = 256  # codelets/spectral_precon/spectral_slabs.hpp, kMaxSlabPieces
MAX_CHAIN_PARTS = 16   # codelets/spectral_precon/spectral_chain_pass.hpp, kMaxChainParts


def default_solver(case):
    """The cases' present solver.method: direct for the spectral cases (cases/taylor_green.toml,
    cases/thermal_bubble.toml), PCG for multigrid (the direct solve needs the spectral inverse)."""
    if case == "mpdata":
        return None
    return "pcg" if case == "tg-multigrid" else "direct"


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


def default_tiles(n, layout="rows"):
    """One tile a GPU, as tools/scaling.sh lays them: rows = 1 x n (tiles span x: two transposes a
    spectral solve); 2d = tx x ty, tx >= ty, as square as possible (2 -> 2x1, 4 -> 2x2, 8 -> 4x2)."""
    if layout == "rows":
        return 1, n
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
    per rank (owner computes), ranks in contiguous runs per node; mpi: how ranks move data (MPIS).
    The spectral preconditioner's slabs as graph/spectral_precon.cpp makes them: column slabs (whole
    y columns, x ranges) where tiles span x, else level slabs; slab s is held with tile s * tiles / slabs.
    level_transposes: transposes a solve with level slabs (2 where the vertical operator is a
    transform, as in every modelled case; 4 before commit e6d0c38). split_chains: tiles 1 x G (G a
    power of two up to 16) split the chains along y and exchange their ends instead of slabs."""

    def __init__(self, grid, gpus, tiles, gpus_per_node, ranks_per_node, mpi, level_transposes=2, split_chains=True):
        self.grid, self.gpus, self.mpi = grid, gpus, mpi
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
        # slab_geometry (codelets/spectral_precon/spectral_slabs.cpp)
        nx, nz, T = grid[0], grid[2], self.ntiles
        if self.tx == 1:
            self.columns, S = True, 1
            while 2 * S <= T and 2 * S <= MAX_SLAB_PIECES and nx // (2 * S) >= 2:
                S *= 2
        else:
            self.columns, S = False, min(T, nz, MAX_SLAB_PIECES)
        self.split = (split_chains and self.tx == 1 and 1 < self.ty <= MAX_CHAIN_PARTS
                      and self.ty & (self.ty - 1) == 0 and self.tile_ny % 2 == 0)
        if self.split:
            S = 0
        self.slabs = S
        self.transposes = 0 if self.split else 2 if self.columns else level_transposes
        self.gpu_of_slab = [self.gpu_of_tile[s * T // S] for s in range(S)]

    def piece_cells(self, t, s):
        """Cells of tile t's part of slab s."""
        if self.columns:
            return (self.grid[0] // self.slabs) * self.tile_ny * self.nz
        z0, z1 = s * self.nz // self.slabs, (s + 1) * self.nz // self.slabs
        return self.tile_nx * self.tile_ny * (z1 - z0)

    def slab_cells(self, s):
        return sum(self.piece_cells(t, s) for t in range(self.ntiles))

    def rank(self, gpu):
        return gpu // self.gpus_per_rank

    def node(self, gpu):
        return self.rank(gpu) // self.ranks_per_node

    def link(self, g1, g2):
        if g1 == g2:
            return "self"
        if self.rank(g1) == self.rank(g2):
            return "nvlink"
        return "rank" if self.node(g1) == self.node(g2) else "network"

    def tiles_on(self, gpu):
        return [t for t in range(self.ntiles) if self.gpu_of_tile[t] == gpu]

    def slabs_on(self, gpu):
        return [s for s in range(self.slabs) if self.gpu_of_slab[s] == gpu]

    def transpose_bytes(self, gpu):
        """Bytes one transpose moves between GPU `gpu` and others, by link kind: max(sent, received)
        (tiles to slabs: its tiles' pieces of other GPUs' slabs out, other tiles' pieces of its slabs
        in; slabs to tiles the reverse, the same bytes)."""
        return self._link_bytes(gpu, ((self.gpu_of_tile[t], self.gpu_of_slab[s], self.piece_cells(t, s) * B)
                                      for t in range(self.ntiles) for s in range(self.slabs)))

    def chain_end_bytes(self, gpu):
        """Split chains: bytes of the chains' ends GPU `gpu` exchanges a solve, by link kind: its tiles'
        exchange vectors to every other GPU, every other tile's in (2 ends a chain, 2 chains a column)."""
        per_tile = 2 * 2 * self.grid[0] * self.nz * B
        return self._link_bytes(gpu, ((self.gpu_of_tile[t], self.gpu_of_tile[u], per_tile)
                                      for t in range(self.ntiles) for u in range(self.ntiles)))

    def _link_bytes(self, gpu, moves):
        """max(sent, received) bytes of GPU `gpu` by link kind, over moves (from GPU, to GPU, bytes)."""
        out, inn = {}, {}
        for a, b, n in moves:
            if a == b:
                continue
            if a == gpu:
                k = self.link(gpu, b)
                out[k] = out.get(k, 0.0) + n
            elif b == gpu:
                k = self.link(gpu, a)
                inn[k] = inn.get(k, 0.0) + n
        return {k: max(out.get(k, 0.0), inn.get(k, 0.0)) for k in set(out) | set(inn)}

    def faces(self, t):
        """(neighbour tile, strip cells) of tile t's 4 faces, periodic; strip cells per unit width."""
        i, j = t % self.tx, t // self.tx
        out = []
        for di, dj, edge in ((-1, 0, self.tile_ny), (1, 0, self.tile_ny), (0, -1, self.tile_nx), (0, 1, self.tile_nx)):
            n = ((i + di) % self.tx) + ((j + dj) % self.ty) * self.tx
            out.append((n, edge * self.nz))
        return out


def _v(entry):
    return entry["value"] if isinstance(entry, dict) else entry


class Model:
    def __init__(self, cal, fitted=True):
        """fitted=False: the links at their published / typical figures, stage factor 1, no multi-tile
        multigrid overhead: nothing fitted on a multi-GPU run."""
        self.cal = cal
        L = cal["links"]
        self.bw = {"nvlink": _v(L["nvlink_GBps"]), "pcie": _v(L["pcie_GBps"]),
                   "internode": _v(L["internode_GBps"]), "staged": _v(L["staged_rank_GBps"])}
        self.cuda_rank_bw = _v(L["cuda_rank_GBps"])          # None: NVLink's effective rate
        hop = _v(L["rank_latency_us"]) * 1e-3                 # a StarPU-MPI hop, either build
        self.lat = {"nvlink": _v(L["nvlink_latency_us"]) * 1e-3, "rank": hop, "network": hop}
        r = cal["reduction_latency_us"]
        self.red_lat = {k: _v(r[k]) * 1e-3 for k in ("one_gpu_one_tile", "one_gpu_two_tiles",
                                                       "two_gpus_one_process", "two_ranks", "four_gpus_one_process")
                        if k in r}
        self.fitted = fitted
        self._mpdata()
        self._spectral_inputs()
        self.stage_factor = {"pcg": 1.0, "direct": 1.0}
        self.mg_over = 0.0
        if fitted:
            self._fit_nvlink()
            self._fit_stage_factor("pcg", "stage_overhead_factor")
            self._fit_stage_factor("direct", "stage_overhead_factor_direct")
            self._fit_multigrid()
        else:
            self.bw["staged"] = self.bw["pcie"] / 2           # device -> host, host -> device
            self._multigrid_iterations()

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

    def _spectral_inputs(self):
        s = self.cal["dycore_spectral"]
        self.s1 = _v(s["solve_ms_at_256cubed"]) / C256        # 1-GPU single-task solve, ms a cell
        self.apps = _v(s["applications_per_step"])
        # per solver form: 1-GPU times, the bubble's non-solver work over Taylor-Green's, halo counts
        # (the bubble's own where given: its theta strips) and width (MPDATA's where not given),
        # reductions on the step's path
        self.form = {}
        for solver, key in (("pcg", "dycore_spectral"), ("direct", "dycore_direct")):
            d = self.cal[key]
            pts = [(cells(parse_grid(p["grid"])), p["ms"]) for p in d["one_gpu"]]
            b = d["bubble_one_gpu"]
            c = cells(parse_grid(b["grid"]))
            fields, exch = _v(d["halo_fields_per_step"]), _v(d["halo_exchanges_per_step"])
            self.form[solver] = {
                "pts": pts,
                "bubble": (b["ms"] - self.s1 * c) / (interp(pts, c) - self.s1 * c),  # non-solver work
                "halo": {"tg": (fields, exch),
                         "bubble": (_v(d.get("bubble_halo_fields_per_step", fields)),
                                    _v(d.get("bubble_halo_exchanges_per_step", exch)))},
                "width": _v(d.get("halo_width", self.w)),
                "reductions": _v(d["reductions_per_step"]),
            }

    def _point_args(self, p):
        """predict's arguments for a measured point. A point without "solver" ran PCG (every point
        measured before the direct solve); one without "mpi" ran the host-staged build (every rank
        point before the CUDA-aware one)."""
        return dict(case=p["case"], grid=parse_grid(p["grid"]), gpus=p["gpus"], tiles=tile_pair(p["tiles"]),
                    gpus_per_node=p["gpus"], ranks_per_node=p.get("ranks_per_node", 1),
                    iterations=p.get("iterations"), apps=p.get("applications_moving_pieces"),
                    solver=None if p["case"] == "mpdata" else p.get("solver", "pcg"), mpi=p.get("mpi", "staged"),
                    level_transposes=p.get("level_transposes", 2), split_chains=p.get("split_chains", False))

    def fit_point(self, what):
        pts = [p for p in self.cal["validation"]["points"] if p.get("fits") == what]
        if len(pts) != 1:
            raise ValueError("calibration: %d validation points fit %s (want 1)" % (len(pts), what))
        return pts[0]

    def _fit_nvlink(self):
        """NVLink's effective rate for pieces: the step-time difference between the default (skipped
        spectral applications moving pieces) and solver.max_iter = 1 (one application), one process."""
        given = _v(self.cal["links"]["nvlink_effective_GBps"])
        if given is not None:                                    # a figure from elsewhere (measured)
            self.bw["nvlink"] = given
            return
        p = next((q for q in self.cal.get("skipped_applications", {}).get("pairs", [])
                  if q.get("fits") == "nvlink_effective_GBps"), None)
        if p is None:
            raise ValueError("calibration: links.nvlink_effective_GBps is null and no skipped_applications pair fits it")
        lay = Layout(parse_grid(p["grid"]), p["gpus"], tile_pair(p["tiles"]), p["gpus"], p.get("ranks_per_node", 1),
                     p.get("mpi", "staged"), split_chains=False)
        n = (p["applications_default"] - p["applications_max_iter_1"]) * lay.transposes
        byts = max(lay.transpose_bytes(g).get("nvlink", 0.0) for g in range(lay.gpus))
        dt = p["default_ms"] - p["max_iter_1_ms"] - n * self.lat["nvlink"]
        self.bw["nvlink"] = n * byts / dt * 1e-6

    def _fit_stage_factor(self, solver, what):
        p = self.fit_point(what)
        args = self._point_args(p)
        if args["solver"] != solver:
            raise ValueError("calibration: the point fitting %s ran %s, not %s" % (what, args["solver"], solver))
        ev = []
        for f in (0.0, 1.0):
            self.stage_factor[solver] = f
            ev.append(self.predict(**args)["total"])
        self.stage_factor[solver] = (p["ms"] - ev[0]) / (ev[1] - ev[0])

    def _multigrid_iterations(self):
        mg = self.cal["dycore_multigrid"]
        self.mg_iters = [(cells(parse_grid(p["grid"])), p["iterations"]) for p in mg["one_gpu"]]
        self.mg_it = [(cells(parse_grid(p["grid"])), (p["ms"] - self.own(cells(parse_grid(p["grid"])), "pcg")) / p["iterations"])
                      for p in mg["one_gpu"]]
        self.mg_red = _v(mg["reductions_per_iteration"])

    def _fit_multigrid(self):
        self._multigrid_iterations()
        p = self.fit_point("multigrid_multitile_overhead")
        self.mg_over = 0.0
        r = self.predict(**self._point_args(p))
        self.mg_over = (p["ms"] - r["total"]) / r["iterations"]

    # ---- terms ----------------------------------------------------------------------------------
    def own(self, c, solver):
        """Per-GPU dycore work of c cells without the spectral solve (the solver form's 1-GPU times)."""
        return interp(self.form[solver]["pts"], c) - self.s1 * c

    def link_bw(self, kind, mpi):
        if kind == "nvlink":
            return self.bw["nvlink"]
        if mpi == "cuda":   # CUDA IPC over NVLink within a node; between nodes the network from GPU memory
            rate = self.bw["nvlink"] if self.cuda_rank_bw is None else self.cuda_rank_bw
        else:               # device -> host -> device
            rate = self.bw["staged"]
        return rate if kind == "rank" else min(rate, self.bw["internode"])

    def red_extra(self, lay):
        """Latency a reduction adds over the 1-GPU, 1-tile one (which the 1-GPU times contain)."""
        if lay.ranks > 1:
            k = "two_ranks"
        elif lay.gpus >= 4 and "four_gpus_one_process" in self.red_lat:
            k = "four_gpus_one_process"
        elif lay.gpus > 1:
            k = "two_gpus_one_process"
        elif lay.ntiles > 1:
            k = "one_gpu_two_tiles"
        else:
            k = "one_gpu_one_tile"
        return self.red_lat[k] - self.red_lat["one_gpu_one_tile"]

    def halo(self, lay, fields, exchanges, gpu, width=None):
        """Strip traffic of one GPU a step: (ms, bytes), strips `width` columns wide (default MPDATA's,
        mpdata.halo_width). Strips of all faces and fields travel concurrently; each exchange (a
        pack-and-unpack task chain) pays the slowest link's latency once."""
        width = self.w if width is None else width
        per_kind = {}
        for t in lay.tiles_on(gpu):
            for n, c in lay.faces(t):
                k = lay.link(gpu, lay.gpu_of_tile[n])
                if k != "self":
                    per_kind[k] = per_kind.get(k, 0.0) + fields * width * c * B
        if not per_kind:
            return 0.0, 0.0
        t = max(b / self.link_bw(k, lay.mpi) * 1e-6 for k, b in per_kind.items())
        t += exchanges * max(self.lat[k] for k in per_kind)
        return t, sum(per_kind.values())

    def transposes(self, lay, apps):
        """ms a step of the spectral transposes on the slowest GPU: apps x transposes a solve x
        (bytes / rate + one latency); split chains: apps x the ends' exchange (bytes / rate + one
        latency)."""
        worst = 0.0
        for g in range(lay.gpus):
            by = lay.chain_end_bytes(g) if lay.split else lay.transpose_bytes(g)
            if by:
                worst = max(worst, max(b / self.link_bw(k, lay.mpi) * 1e-6 + self.lat[k] for k, b in by.items()))
        return apps * (1 if lay.split else lay.transposes) * worst

    def iterations(self, case, grid, given):
        if given:
            return given, "given"
        c = cells(grid)
        near = min(self.mg_iters, key=lambda p: abs(math.log(p[0] / c)))
        return near[1], "from the 1-GPU calibration grid nearest in cells (%d cells); pass --iterations" % near[0]

    # ---- prediction -----------------------------------------------------------------------------
    def predict(self, case, grid, gpus, tiles=None, gpus_per_node=8, ranks_per_node=1, iterations=None,
                apps=None, layout="rows", solver=None, mpi="cuda", level_transposes=2, split_chains=True):
        """solver: "direct" or "pcg" (None: the case's present method, default_solver); mpi: how
        ranks move data (MPIS); level_transposes, split_chains: Layout's."""
        solver = solver or default_solver(case)
        if case == "tg-multigrid" and solver == "direct":
            raise ValueError("the direct solve needs the spectral inverse: tg-multigrid runs PCG (--solver pcg)")
        tiles = tiles or default_tiles(gpus, layout)
        lay = Layout(grid, gpus, tiles, gpus_per_node, ranks_per_node, mpi, level_transposes, split_chains)
        r = {"case": case, "grid": grid, "gpus": gpus, "tiles": tiles, "ranks": lay.ranks, "nodes": lay.nodes,
             "solver": None if case == "mpdata" else solver, "mpi": mpi if lay.ranks > 1 else None,
             "stages": 0.0, "transposes": 0.0, "halo": 0.0, "reductions": 0.0, "notes": []}
        if case == "mpdata":
            return self._predict_mpdata(lay, r)
        return self._predict_dycore(case, lay, r, iterations, self.apps if apps is None else apps, solver)

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
        r.update(comp=comp, comm=comm, halo=comm, overlap=comm - exposed, total=T_I, basic=T_B,
                 H=self.m_H, V=T_O / T_I)
        return r

    def _predict_dycore(self, case, lay, r, iterations, apps, solver):
        C = cells(lay.grid)
        mg = case == "tg-multigrid"
        form = self.form[solver]
        scale = form["bubble"] if case == "bubble" else 1.0      # the bubble's non-solver work over TG's
        fields, exch = form["halo"]["bubble" if case == "bubble" else "tg"]
        r["halo_counts"] = (fields, form["width"], exch)
        if mg:
            its, how = self.iterations(case, lay.grid, iterations)
            r["iterations"] = its
            if how != "given":
                r["notes"].append("iterations %d %s" % (its, how))
        if lay.ntiles == 1:                                       # the single-tile path: the 1-GPU times
            comp = scale * self.own(C, solver) + (its * interp(self.mg_it, C) if mg else self.s1 * C)
            r.update(comp=comp, comm=0.0, overlap=0.0, total=comp, V=0.0)
            return r
        halo_t = max(self.halo(lay, fields, exch, g, form["width"])[0] for g in range(lay.gpus))
        per_gpu = max(len(lay.tiles_on(g)) for g in range(lay.gpus)) * lay.tile_cells
        comp = scale * self.own(per_gpu, solver)
        red = form["reductions"] * self.red_extra(lay)
        stages = xfer = 0.0
        if mg:
            it_t = interp(self.mg_it, per_gpu) + self.mg_over
            h_it = 0.0
            for g in range(lay.gpus):
                levels = max(1, int(math.log2(min(lay.tile_nx, lay.tile_ny, lay.nz))) - 2)
                t, _ = self.halo(lay, 2, 2 * levels + 3, g)  # V-cycle halos: coarser levels ~ one more strip
                h_it = max(h_it, t)
            comp += its * it_t
            red += its * self.mg_red * self.red_extra(lay)
            halo_t += its * h_it
        else:
            share = max(max(len(lay.tiles_on(g)) * lay.tile_cells, sum(lay.slab_cells(s) for s in lay.slabs_on(g)))
                        for g in range(lay.gpus))
            stages = self.stage_factor[solver] * self.s1 * share
            r["stage_factor"] = self.stage_factor[solver]
            xfer = self.transposes(lay, apps)
            r["applications"], r["transposes_per_solve"], r["slabs"] = apps, lay.transposes, lay.slabs
            r["split_chains"] = lay.split
        comm = xfer + halo_t + red
        total = comp + stages + comm
        r.update(comp=comp, stages=stages, transposes=xfer, halo=halo_t, reductions=red, comm=comm,
                 overlap=0.0, total=total, V=0.0)
        return r


# ---- output -------------------------------------------------------------------------------------
def gs(g):
    return "x".join(str(v) for v in g)


MPI_WORDS = {"cuda": "CUDA-aware MPI", "staged": "host-staged MPI"}


def ranks_str(r):
    return "%d (%s)" % (r["ranks"], MPI_WORDS[r["mpi"]]) if r["mpi"] else "%d" % r["ranks"]


def print_prediction(r, m):
    print("case %s  grid %s  gpus %d  tiles %dx%d  ranks %s  nodes %d" % (
        r["case"], gs(r["grid"]), r["gpus"], r["tiles"][0], r["tiles"][1], ranks_str(r), r["nodes"]))
    if r["solver"] == "direct":
        print("solver              direct   (p = A^+ f once a step: no reduction, no PCG pass on the path)")
    elif r["solver"] == "pcg":
        print("solver              pcg      (PCG: its start's and passes' reductions on the path)")
    print("computation_ms      %9.3f   (the GPU's work from the 1-GPU times%s)" % (
        r["comp"], ", without the spectral solve" if "applications" in r else ""))
    if "applications" in r:
        print("spectral_stages_ms  %9.3f   (its share of the solve x stage factor %.2f)" % (r["stages"], r["stage_factor"]))
        if r["split_chains"]:
            print("transposes_ms       %9.3f   (%d application(s) x the split chains' ends, no transposes)" % (
                r["transposes"], r["applications"]))
        else:
            print("transposes_ms       %9.3f   (%d application(s) x %d transposes, %d slabs)" % (
                r["transposes"], r["applications"], r["transposes_per_solve"], r["slabs"]))
    else:
        print("spectral_stages_ms  %9.3f" % r["stages"])
        print("transposes_ms       %9.3f" % r["transposes"])
    if "halo_counts" in r:
        print("halo_ms             %9.3f   (%d fields of width %d in %d exchanges a step)" % (
            (r["halo"],) + r["halo_counts"]))
    else:
        print("halo_ms             %9.3f" % r["halo"])
    print("reductions_ms       %9.3f" % r["reductions"])
    print("communication_ms    %9.3f   (transposes + halo + reductions)" % r["comm"])
    print("overlap_ms          %9.3f   (V = T_O / T_I = %.3f)" % (r["overlap"], r["V"]))
    if "H" in r:
        print("split_overhead_H    %9.3f   (eq. 4)   basic (overlap off) %.3f ms" % (r["H"], r["basic"]))
    if "iterations" in r:
        print("iterations          %9d" % r["iterations"])
    for n in r["notes"]:
        print("note: " + n)
    print("predicted_ms_per_step %.3f" % r["total"])


def apply_overrides(m, a):
    if a.stage_factor is not None:
        m.stage_factor = {k: a.stage_factor for k in m.stage_factor}


def cmd_predict(m, a):
    tiles = tile_pair(a.tiles) if a.tiles else None
    r = m.predict(a.case, a.grid, a.gpus, tiles, a.gpus_per_node, a.ranks_per_node, a.iterations,
                  a.applications, a.layout, a.solver, a.mpi, split_chains=a.flow == "split")
    print_prediction(r, m)


def cmd_scan(m, a):
    rows = []
    solver = a.solver or default_solver(a.case)
    print("# %s%s, %s scaling, grid %s%s, %s tiles, %d GPUs a node, %d ranks a node, ranks over %s" % (
        a.case, " (%s solve)" % solver if solver else "", "weak" if a.weak else "strong", gs(a.grid),
        " a GPU" if a.weak else "", a.layout, a.gpus_per_node, a.ranks_per_node, MPI_WORDS[a.mpi]))
    print("%5s %6s %6s %14s %11s %10s %9s %9s %7s %11s %10s" % (
        "gpus", "nodes", "tiles", "grid", "ms/step", "comp", "stages", "comm", "V", "Gcell/s", "efficiency"))
    base, err = None, ValueError("no GPU count in 1..%d fits" % a.max_gpus)
    for n in range(1, a.max_gpus + 1):
        tx, ty = default_tiles(n, a.layout)
        g = (a.grid[0] * tx, a.grid[1] * ty, a.grid[2]) if a.weak else a.grid
        try:
            r = m.predict(a.case, g, n, (tx, ty), a.gpus_per_node, a.ranks_per_node, a.iterations, a.applications,
                          solver=solver, mpi=a.mpi, split_chains=a.flow == "split")
        except ValueError as e:
            err = e
            continue
        rate = cells(g) / r["total"] * 1e-6
        if base is None:
            base = rate
        eff = rate / (base * n)
        rows.append((n, r, rate))
        print("%5d %6d %6s %14s %11.3f %10.3f %9.3f %9.3f %7.3f %11.2f %10.2f" % (
            n, r["nodes"], "%dx%d" % (tx, ty), gs(g), r["total"], r["comp"], r["stages"], r["comm"], r["V"], rate, eff))
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
    cross = next((n for n, r, _ in rows if r["comm"] - r["overlap"] >= r["comp"] + r["stages"]), None)
    print("comm_exceeds_comp_at_gpus %s (paper 003's point: communication no longer hidden behind computation)"
          % (cross if cross else "none in range"))


def cmd_validate(m, a):
    cal = m.cal
    prior = Model(cal, fitted=False)
    print("%-13s %-6s %-12s %5s %8s %6s %5s %10s %10s %8s %10s %8s  %s" % (
        "case", "solver", "grid", "gpus", "ranks", "tiles", "apps", "measured", "model", "error", "published", "error",
        "kind"))
    ranks = lambda r: "%d:%s" % (r["ranks"], r["mpi"]) if r["mpi"] else "1"
    within = 0
    for p in cal["validation"]["points"]:
        args = m._point_args(p)
        r = m.predict(**args)
        q = prior.predict(**args)["total"]
        err = (r["total"] - p["ms"]) / p["ms"]
        if p.get("fits"):
            k = "fitted: " + p["fits"]
        else:
            within += abs(err) <= 0.15
            k = "check" + ("" if abs(err) <= 0.15 else ": MISSES 15 %" + (" (known: see its 'misses')"
                                                                           if p.get("misses") else ""))
        apps = str(r["applications"]) if "applications" in r else "-"
        print("%-13s %-6s %-12s %5d %8s %6s %5s %10.3f %10.3f %+7.1f%% %10.3f %+7.1f%%  %s" % (
            p["case"], r["solver"] or "-", p["grid"], p["gpus"], ranks(r), p["tiles"], apps, p["ms"], r["total"],
            100 * err, q, 100 * (q - p["ms"]) / p["ms"], k))
    for p in cal.get("skipped_applications", {}).get("pairs", []):
        d_meas = p["default_ms"] - p["max_iter_1_ms"]
        args = m._point_args(dict(p, case="tg-spectral"))
        res = [(mm.predict(**dict(args, apps=p["applications_default"])),
                mm.predict(**dict(args, apps=p["applications_max_iter_1"]))) for mm in (m, prior)]
        d = [hi["total"] - lo["total"] for hi, lo in res]
        err = (d[0] - d_meas) / d_meas
        if not p.get("fits"):
            within += abs(err) <= 0.15
        k = ("fitted: " + p["fits"]) if p.get("fits") else "check" + ("" if abs(err) <= 0.15 else ": MISSES 15 %")
        print("%-13s %-6s %-12s %5d %8s %6s %5s %10.3f %10.3f %+7.1f%% %10.3f %+7.1f%%  %s" % (
            "skipped", "pcg", p["grid"], p["gpus"], ranks(res[0][0]), p["tiles"],
            "%d-%d" % (p["applications_default"], p["applications_max_iter_1"]), d_meas, d[0], 100 * err,
            d[1], 100 * (d[1] - d_meas) / d_meas, k))
    nchecks = sum(1 for p in cal["validation"]["points"] + cal.get("skipped_applications", {}).get("pairs", [])
                  if not p.get("fits"))
    print("# %d of the %d checks within 15 %%" % (within, nchecks))
    if cal.get("skipped_applications", {}).get("pairs"):
        print("# skipped: the default's step time (its pieces-moving applications a step) less solver.max_iter = 1's, "
              "same build: the cost of the skipped spectral applications")
    print("# derived: MPDATA H = %.3f, c_tile = %.3f ms, border band %.3f ms at 256^3; spectral: 1-GPU solve %.2f ms "
          "at 256^3, stage factor %.2f (fitted), NVLink %.0f GB/s effective (%s), ranks %.0f GB/s CUDA-aware "
          "(%s) or %.1f GB/s host-staged, %.0f us a hop; "
          "reductions %d a step at +%.0f us (2 GPUs, one process) / +%.0f us (2 ranks); multigrid multi-tile "
          "overhead %.2f ms an iteration (fitted)" % (
              m.m_H, m.m_ctile, m.m_b * 2 * 512 * 256, m.s1 * C256, m.stage_factor["pcg"], m.bw["nvlink"],
              "given" if _v(cal["links"]["nvlink_effective_GBps"]) is not None else "fitted",
              m.link_bw("rank", "cuda"), "NVLink's effective" if m.cuda_rank_bw is None else "given", m.bw["staged"],
              1e3 * m.lat["rank"],
              m.form["pcg"]["reductions"], 1e3 * (m.red_lat["two_gpus_one_process"] - m.red_lat["one_gpu_one_tile"]),
              1e3 * (m.red_lat["two_ranks"] - m.red_lat["one_gpu_one_tile"]), m.mg_over))
    d, tr = m.form["direct"], cal["dycore_direct"]["stage_work_trace_4gpu"]
    print("# derived, direct solve: stage factor %.2f (fitted), reductions %d a step on the path, strips %d fields of "
          "width %d (%.2f of width %d) in %d exchanges (the bubble %d in %d), the bubble's non-solver work %.3f x "
          "Taylor-Green's; the 4-GPU trace of %s: stage tasks %.2f ms a step a GPU (%.1f x the 1-GPU solve), waits "
          "for the transposes %.2f, for strips %.2f" % (
              m.stage_factor["direct"], d["reductions"], d["halo"]["tg"][0], d["width"],
              d["halo"]["tg"][0] * d["width"] / m.w, m.w, d["halo"]["tg"][1], d["halo"]["bubble"][0],
              d["halo"]["bubble"][1], d["bubble"],
              tr.get("build", "?").split()[0], tr["stage_tasks_ms"], tr["stage_tasks_ms"] / (m.s1 * C256),
              tr["transpose_waits_ms"], tr["strip_waits_ms"]))
    print("# 'published': the same model with NVLink at its published %.0f GB/s (CUDA-aware ranks too), host-staged "
          "ranks at PCIe %.0f GB/s twice (%.1f GB/s), stage factor 1 and no multi-tile multigrid overhead: nothing "
          "fitted on a multi-GPU run; ranks N:cuda / N:staged: N ranks, CUDA-aware or host-staged MPI"
          % (prior.bw["nvlink"], prior.bw["pcie"], prior.bw["staged"]))


def main(argv=None):
    ap = argparse.ArgumentParser(prog="perf_model.py", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="See docs/performance.md, 'Performance model (paper 003)'.")
    ap.add_argument("--calibration", default=DEFAULT_CAL, help="calibration JSON (default: %(default)s)")
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--case", choices=CASES, required=True,
                       help="mpdata (bench mpdata --overlap on), tg-spectral, bubble (spectral), tg-multigrid")
        p.add_argument("--grid", type=parse_grid, required=True, help="NXxNYxNZ (scan --weak: a GPU's share)")
        p.add_argument("--gpus-per-node", type=int, default=8, help="GPUs in a node (default 8)")
        p.add_argument("--ranks-per-node", type=int, default=1,
                       help="1: one process drives the node's GPUs (NVLink); = GPUs a node: one rank a GPU (default 1)")
        p.add_argument("--layout", choices=("rows", "2d"), default="rows",
                       help="default tiles: rows = 1xG (tools/scaling.sh's default; column slabs), 2d = 2x1, "
                            "2x2, 4x2 (level slabs); two transposes a spectral solve either way")
        p.add_argument("--solver", choices=SOLVERS,
                       help="the spectral cases' solve: direct (default: the cases' solver.method; the spectral "
                            "inverse once a step, no reductions on the path) or pcg (PCG with the spectral "
                            "preconditioner); tg-multigrid is PCG")
        p.add_argument("--mpi", choices=MPIS, default="cuda",
                       help="how ranks move data: cuda (default; the TASKDYCORE_MPI=cuda build, GPU memory and CUDA "
                            "IPC over NVLink: NVLink's effective rate) or staged (the default build, through host "
                            "memory: links.staged_rank_GBps)")
        p.add_argument("--flow", choices=("split", "slabs"), default="split",
                       help="the spectral solve on tiles 1 x G (G a power of two up to 16): split (default; "
                            "split chains, the chains' ends exchanged) or slabs (the column slabs' two "
                            "transposes, as TASKDYCORE_SPECTRAL_SPLIT_CHAINS=off)")
        p.add_argument("--iterations", type=int, help="solver iterations a step (tg-multigrid)")
        p.add_argument("--applications", type=int,
                       help="spectral applications a step that move pieces (default: the calibration's "
                            "applications_per_step, 1: only a solve's first application is spectral)")
        p.add_argument("--stage-factor", type=float,
                       help="spectral stage overhead factor over the 1-GPU solve (default: fitted for the solver form)")
        p.add_argument("--calibration", default=argparse.SUPPRESS, help=argparse.SUPPRESS)

    p = sub.add_parser("predict", help="ms/step for one configuration, with the model's terms")
    common(p)
    p.add_argument("--gpus", type=int, required=True)
    p.add_argument("--tiles", help="TXxTY (default: one tile a GPU, by --layout)")
    p = sub.add_parser("scan", help="table over 1..max GPUs and where adding GPUs / nodes stops paying")
    common(p)
    p.add_argument("--max-gpus", type=int, default=16)
    p.add_argument("--weak", action="store_true", help="--grid is a GPU's share (weak scaling); else the whole grid")
    sub.add_parser("validate", help="predictions next to the measured multi-GPU points, fitted points marked")
    a = ap.parse_args(argv)
    try:
        with open(a.calibration) as f:
            m = Model(json.load(f))
        if a.cmd != "validate":
            apply_overrides(m, a)
        {"predict": cmd_predict, "scan": cmd_scan, "validate": cmd_validate}[a.cmd](m, a)
    except ValueError as e:
        print("perf_model.py: %s" % e, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
