#!/usr/bin/env bash
# Packs the built programs and the libraries a GPU node lacks (StarPU, FxT, hwloc, HDF5...) into
# bundle/ (ignored by git) for the device machine; see tools/gpu_bench.sh. Usage:
#   tools/make_bundle.sh [BASELINE_EXE]   # BASELINE_EXE: another build's taskdycore, for --baseline A/B
# Everything is stripped of symbols so that the bundle stays well inside the device's 64 MiB.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TASKDYCORE_BUILD:-$root/build}
rm -rf "$root/bundle"
"$root/../shared/tools/gpu-bundle" "$root/bundle" "$build/taskdycore" "$build/tests/test_kernels" "$build/tests/test_model" "$build/tests/test_csr_pcg"
if [ $# -ge 1 ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  cp "$1" "$tmp/taskdycore_base"
  "$root/../shared/tools/gpu-bundle" "$root/bundle" "$tmp/taskdycore_base" >/dev/null
fi
strip --strip-unneeded "$root"/bundle/bin/* "$root"/bundle/lib/*.so* 2>/dev/null || true
echo "bundle: $(du -sh "$root/bundle" | cut -f1)"
