#!/usr/bin/env bash
# Reproducibility guard: the CPU kernels must round every product, as the GPU kernels do (--fmad=false),
# or CPU and CUDA workers give different bits. -ffp-contract=off is not always enough (GCC's SLP
# vectoriser once emitted vfmaddsub for a complex product), so look at the machine code itself.
set -euo pipefail
status=0
for lib in "$@"; do
  n=$(objdump -d "$lib" | grep -cE '\bvfn?m(add|sub)[a-z0-9]*' || true)
  if [ "$n" != "0" ]; then
    echo "$lib: $n fused multiply-add instructions:"
    objdump -d "$lib" | grep -E '^[0-9a-f]+ <|\bvfn?m(add|sub)' | grep -B1 -E '\bvfn?m(add|sub)' | head -20
    status=1
  fi
done
[ $status = 0 ] && echo "no fused multiply-add in: $*"
exit $status
