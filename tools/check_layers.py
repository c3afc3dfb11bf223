#!/usr/bin/env python3
"""Checks the layering of the sources: kernels and codelets (codelets/) -> runtime (graph/runtime/) ->
graph (graph/) -> models (src/ but src/cli/) -> CLI (src/cli/). A file may include only headers of its
own layer or of layers below it, model code submits no task (the graph layer does) and includes
neither StarPU nor MPI (the CLI includes MPI only, to end a failed job).
Usage: check_layers.py ROOT. Prints every violation as file:line and exits 1 if there is any.
Run by every build (CMakeLists.txt) and by the test tools.layers."""
import os
import re
import sys

LAYERS = ["codelets", "runtime", "graph", "models", "cli"]
SUFFIXES = (".hpp", ".cpp", ".cuh", ".cu", ".h")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# StarPU and MPI themselves: below the models only (the CLI may end a failed job with MPI_Abort).
SYSTEM = re.compile(r'^\s*#\s*include\s*<(starpu[a-z_]*\.h|mpi\.h)>')
# Task submission: StarPU's own calls, the codelets' insert_task and their insert_* helpers.
SUBMIT = re.compile(r"\b(starpu_(?:mpi_)?task_(?:insert|submit|build)|starpu_insert_task|insert_[a-z0-9_]+)\s*\(")
NOT_SUBMIT = {"insert_or_assign"}


def layer_of(path):
    """The layer of a path relative to the root, or None outside the layered folders."""
    parts = path.split("/")
    if parts[0] == "codelets":
        return "codelets"
    if parts[0] == "graph":
        return "runtime" if len(parts) > 2 and parts[1] == "runtime" else "graph"
    if parts[0] == "src":
        return "cli" if len(parts) > 2 and parts[1] == "cli" else "models"
    return None


def check(root):
    problems = []
    for top in ("codelets", "graph", "src"):
        for folder, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(SUFFIXES):
                    continue
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, root)
                mine = layer_of(rel)
                with open(full, encoding="utf-8", errors="replace") as f:
                    lines = f.read().split("\n")
                for n, line in enumerate(lines, 1):
                    m = INCLUDE.match(line)
                    if m:
                        target = os.path.normpath(os.path.join(os.path.dirname(rel), m.group(1)))
                        if not os.path.exists(os.path.join(root, target)):
                            target = os.path.normpath(m.group(1))  # from the top of the tree
                        theirs = layer_of(target) if os.path.exists(os.path.join(root, target)) else None
                        if theirs and LAYERS.index(theirs) > LAYERS.index(mine):
                            problems.append(f"{rel}:{n}: includes {target}, a {theirs} header; the {mine} layer may "
                                            f"include only {', '.join(LAYERS[:LAYERS.index(mine) + 1])} headers")
                        if mine in ("models", "cli") and target == "codelets/common/codelet.hpp":
                            problems.append(f"{rel}:{n}: includes {target}; model code submits no task (the graph "
                                            "layer does)")
                    sm = SYSTEM.match(line)
                    if sm and (mine == "models" or (mine == "cli" and sm.group(1) != "mpi.h")):
                        problems.append(f"{rel}:{n}: includes <{sm.group(1)}>; {mine} code reaches StarPU and MPI "
                                        "only through graph/ and graph/runtime/")
                    if mine in ("models", "cli"):
                        code = line.split("//")[0]
                        for call in SUBMIT.finditer(code):
                            if call.group(1) not in NOT_SUBMIT:
                                problems.append(f"{rel}:{n}: calls {call.group(1)}; model code submits no task "
                                                "(put it in a graph/ function)")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check(root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"check_layers: {len(problems)} layering violation(s) (layers: {' -> '.join(LAYERS)})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
