#!/usr/bin/env bash
# The CPU build under AddressSanitizer and UndefinedBehaviorSanitizer, then the tests that need no
# GPU (kernels, the model through StarPU, I/O, the command line). StarPU, MPI and HDF5 are not
# instrumented; leaks are not checked (MPI and StarPU keep memory to the end by design).
# Usage: tools/sanitize.sh [ctest arguments, e.g. -R Advection]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
prefix=$("$root/tools/setup.sh" | tail -n1)
build=${TASKDYCORE_BUILD:-$root/build-sanitize}
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
cmake -S "$root" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTASKDYCORE_CUDA=OFF \
  -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
# (set before the build too: it runs the test binaries to list their tests)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cmake --build "$build" -j"$(nproc)" 2>&1 | grep -vE '^\[ *[0-9]+%\]' || true
cd "$build"
ctest --output-on-failure --timeout 1800 -E 'paraview|no_fused_multiply_add' "$@"
