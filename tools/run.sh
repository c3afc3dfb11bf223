#!/usr/bin/env bash
# Sets up (if needed), builds and runs the default case (GPU if present, CPU otherwise), then says
# where the output is. Extra arguments go to `taskdycore run`, e.g. --set grid.nx=256 --trace DIR.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$("$root/tools/build.sh" | tail -n1)
case_file=${TASKDYCORE_CASE:-$root/cases/taylor_green.toml}
cd "$root"
exec "$build/taskdycore" run "$case_file" "$@"
