#!/usr/bin/env bash
# Packs the built programs and the libraries a GPU node lacks (StarPU, FxT, hwloc, HDF5...) into
# bundle/ (ignored by git) for the device machine; see tools/gpu_bench.sh.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TASKDYCORE_BUILD:-$root/build}
rm -rf "$root/bundle"
"$root/../shared/tools/gpu-bundle" "$root/bundle" "$build/taskdycore" "$build/tests/test_kernels" "$build/tests/test_model" "$build/tests/test_csr_pcg"
