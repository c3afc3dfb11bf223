#!/usr/bin/env bash
# The layering check (tools/check_layers.py, run by every build): the tree passes, and a copy of it
# fails once a graph file includes a model header, a runtime file includes a graph header, or model
# code submits a task or includes StarPU.
set -euo pipefail
root=$1
python3 "$root/tools/check_layers.py" "$root"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails() {  # the check must reject the copy, naming the file
  local name=$1 file=$2
  if python3 "$root/tools/check_layers.py" "$work/tree" 2>"$work/err"; then
    echo "FAIL: $name passed the layering check"; exit 1
  fi
  grep -q "$file" "$work/err" || { echo "FAIL: $name: the report does not name $file"; cat "$work/err"; exit 1; }
  echo "ok: $name rejected: $(head -1 "$work/err")"
}
fresh() { rm -rf "$work/tree"; mkdir -p "$work/tree"; cp -r "$root/codelets" "$root/graph" "$root/src" "$work/tree/"; }

fresh
echo '#include "../src/dycore/dycore_model.hpp"' >> "$work/tree/graph/nft_step.hpp"
fails "a graph header including a model header" graph/nft_step.hpp

fresh
echo '#include "../../src/advection/advection_config.hpp"' >> "$work/tree/graph/runtime/grid.cpp"
fails "a runtime file including a model header" graph/runtime/grid.cpp

fresh
echo '#include "../halo_exchange.hpp"' >> "$work/tree/graph/runtime/tiled_field.cpp"
fails "a runtime file including a graph header" graph/runtime/tiled_field.cpp

fresh
echo '#include "../../graph/nft_step.hpp"' >> "$work/tree/codelets/common/strided_copy.cpp"
fails "a codelet file including a graph header" codelets/common/strided_copy.cpp

fresh
echo 'void f(starpu_data_handle_t a, starpu_data_handle_t b) { tdc::insert_snapshot_copy(a, b, 0); }' >> "$work/tree/src/dycore/dycore_model.cpp"
fails "model code submitting a task" src/dycore/dycore_model.cpp

fresh
echo '#include "../cli/commands.hpp"' >> "$work/tree/src/dycore/dycore_run.cpp"
touch "$work/tree/src/cli/commands.hpp"
fails "a model file including a CLI header" src/dycore/dycore_run.cpp
fresh
sed -i '1i #include <starpu.h>' "$work/tree/src/advection/advection_model.cpp"
fails "model code including StarPU" src/advection/advection_model.cpp

echo "layering check: the tree passes, every violation is caught"
