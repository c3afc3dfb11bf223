#!/usr/bin/env bash
# Configures and builds taskdycore in build/ (sets up dependencies first if needed).
# Usage: tools/build.sh [extra cmake -D options]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$("$root/tools/setup.sh" | tail -n1)
build=${TASKDYCORE_BUILD:-$root/build}
launcher=()  # ccache, where installed, makes rebuilds of other checkouts and clean clones cheap
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$(dirname "$root")}
fi
# pkg-config's answers are cached: a new StarPU prefix (another version or patch) needs a fresh configure.
if [ -f "$build/CMakeCache.txt" ] && ! grep -qx "STARPU_PREFIX:INTERNAL=$prefix" "$build/CMakeCache.txt"; then
  rm -f "$build/CMakeCache.txt"
fi
source "$root/tools/deps.env"
mpi=()  # TASKDYCORE_MPI=cuda: the CUDA-aware Open MPI that StarPU was built against
[ "$TASKDYCORE_MPI" = cuda ] && mpi=(-DMPI_C_COMPILER="$MPI_PREFIX/bin/mpicc")
cmake -S "$root" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" \
  ${mpi[@]+"${mpi[@]}"} "$@" >/dev/null
cmake --build "$build" -j"$(nproc)" 2>&1 | grep -vE '^\[ *[0-9]+%\]' || true
test -x "$build/taskdycore" || { echo "build failed" >&2; exit 1; }
echo "$build"
