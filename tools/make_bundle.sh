#!/usr/bin/env bash
# Packs the built programs and the libraries a GPU node lacks (StarPU, FxT, hwloc, HDF5...) into
# bundle/ (ignored by git) for the device machine; see tools/gpu_bench.sh. Usage:
#   tools/make_bundle.sh [--add EXE]... [BASELINE_EXE]   # BASELINE_EXE: another build's taskdycore,
#                                                        # for --baseline A/B; --add: more programs
# With TASKDYCORE_MPI=cuda (and TASKDYCORE_BUILD pointing at that build) it also packs the
# CUDA-aware Open MPI (tools/deps.env) and makes env.sh use it. Add programs with --add, not with
# ../shared/tools/gpu-bundle afterwards: that rewrites env.sh without the MPI's lines, and ranks then
# move GPU data through host memory (taskdycore warns; docs/performance.md, "Two ranks on 2-GPU nodes").
# Everything is stripped of symbols so that the bundle stays well inside the device's 64 MiB.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${TASKDYCORE_BUILD:-$root/build}
base='' extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --add) [ $# -ge 2 ] || { echo "make_bundle: --add needs a program" >&2; exit 2; }; extra+=("$2"); shift 2 ;;
    -*) echo "make_bundle: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$base" ] || { echo "make_bundle: one BASELINE_EXE only" >&2; exit 2; }; base=$1; shift ;;
  esac
done
rm -rf "$root/bundle"
source "$root/tools/deps.env"
# starpu_fxt_tool: tools/trace (and tools/scaling.sh --trace on) then run on the node itself.
"$root/../shared/tools/gpu-bundle" "$root/bundle" "$build/taskdycore" "$build/tests/test_kernels" "$build/tests/test_model" \
  "$build/tests/test_csr_pcg" "$STARPU_PREFIX/bin/starpu_fxt_tool" ${extra[@]+"${extra[@]}"}
# The all-to-all rate and the spectral passes without StarPU (tools/link_bench/, tools/kernel_bench/),
# where the build has CUDA.
for b in alltoall_bench spectral_pass_bench; do
  if [ -x "$build/$b" ]; then "$root/../shared/tools/gpu-bundle" "$root/bundle" "$build/$b" >/dev/null; fi
done
if [ -n "$base" ]; then
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  cp "$base" "$tmp/taskdycore_base"
  "$root/../shared/tools/gpu-bundle" "$root/bundle" "$tmp/taskdycore_base" >/dev/null
fi
if [ "$TASKDYCORE_MPI" = cuda ]; then
  # The CUDA-aware Open MPI the build links (the node's own is built without CUDA): its libraries,
  # plugins, launcher and help files, found there through OPAL_PREFIX; its mpirun comes first.
  mkdir -p "$root/bundle/ompi/share"
  cp -a "$MPI_PREFIX/bin" "$MPI_PREFIX/lib" "$root/bundle/ompi/"
  cp -a "$MPI_PREFIX/share/openmpi" "$root/bundle/ompi/share/"
  rm -rf "$root/bundle/ompi/lib/pkgconfig" "$root/bundle/ompi/lib/"*.la "$root/bundle/ompi/lib/openmpi/"*.la
  cat >> "$root/bundle/env.sh" <<'ENV'
export OPAL_PREFIX="$here/ompi"
export PATH="$here/ompi/bin:$PATH"
export LD_LIBRARY_PATH="$here/ompi/lib:$LD_LIBRARY_PATH"
ENV
  strip --strip-unneeded "$root"/bundle/ompi/lib/*.so* "$root"/bundle/ompi/lib/openmpi/*.so 2>/dev/null || true
fi
strip --strip-unneeded "$root"/bundle/bin/* "$root"/bundle/lib/*.so* 2>/dev/null || true
echo "bundle: $(du -sh "$root/bundle" | cut -f1)"
