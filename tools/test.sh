#!/usr/bin/env bash
# Sets up (if needed), builds and runs the whole test suite through ctest. CPU/CUDA agreement tests
# skip with a message where there is no GPU; run them on a GPU machine.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$("$root/tools/build.sh" | tail -n1)
cd "$build"
ctest --output-on-failure --timeout 900 "$@"
