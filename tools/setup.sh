#!/usr/bin/env bash
# Sets up everything taskdycore needs on a fresh Debian 12 machine:
#   1. Debian packages (compilers, CMake, OpenMPI, HDF5, hwloc, FxT, GoogleTest, toml11, CLI11, fmt, Python tools);
#   2. with TASKDYCORE_MPI=cuda only: Open MPI built with CUDA (deps.env), in its own cached prefix;
#   3. StarPU (version in deps.env) from Debian's source package, with CUDA (when nvcc exists), FxT
#      and MPI, patched (tools/patches/), installed into a prefix outside the clone that is reused when it
#      already holds the same version, patch and options.
# Prints the StarPU prefix on its last line. Idempotent: a second run takes seconds.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/deps.env"

log() { printf '[setup] %s\n' "$*" >&2; }
SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo

# ---- 1. Debian packages -------------------------------------------------------------------
packages=(build-essential cmake pkg-config git ca-certificates dpkg-dev
          autoconf automake libtool
          libopenmpi-dev openmpi-bin libhdf5-dev hdf5-tools libhwloc-dev libfxt-dev libnuma-dev
          ccache libgtest-dev libtoml11-dev libcli11-dev libfmt-dev nlohmann-json3-dev
          python3 python3-numpy python3-h5py python3-matplotlib python3-xarray python3-netcdf4)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
need_src=0; [ -f "$STARPU_STAMP" ] && grep -qx "$STARPU_KEY" "$STARPU_STAMP" || need_src=1
need_mpi=0
if [ "$TASKDYCORE_MPI" = cuda ]; then
  [ "$STARPU_CUDA" = yes ] || { log "TASKDYCORE_MPI=cuda needs CUDA (nvcc)"; exit 1; }
  grep -qsx "$MPI_KEY" "$MPI_PREFIX/.taskdycore-stamp" || { need_mpi=1; need_src=1; }
fi
if [ ${#missing[@]} -gt 0 ] || [ $need_src -eq 1 ]; then
  src_list=/etc/apt/sources.list.d/taskdycore-src.sources
  if [ $need_src -eq 1 ] && ! grep -qs "^Suites:.* $STARPU_DEBIAN_SUITE" "$src_list"; then
    log "adding a deb-src entry for Debian $STARPU_DEBIAN_SUITE's source packages (StarPU's source only)"
    $SUDO tee "$src_list" >/dev/null <<SRC
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm $STARPU_DEBIAN_SUITE
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  fi
  log "apt-get update"
  $SUDO apt-get update -q >/dev/null
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- 2. Open MPI with CUDA (TASKDYCORE_MPI=cuda only) ------------------------------------
mpi_opts=()
if [ "$TASKDYCORE_MPI" = cuda ]; then
  if [ $need_mpi -eq 1 ]; then
    log "building Open MPI $OMPI_VERSION with CUDA into $MPI_PREFIX (about 20 minutes on 2 cores)"
    mwork=$(mktemp -d "${TMPDIR:-/tmp}/openmpi-build.XXXXXX")
    (cd "$mwork" && apt-get source -q --download-only "openmpi=$OMPI_DEBIAN_VERSION" >/dev/null 2>&1 &&
       tar -xJf "openmpi_$OMPI_VERSION.orig.tar.xz") || { log "apt-get source openmpi failed"; exit 1; }
    rm -rf "$MPI_PREFIX"
    # The upstream tarball (Debian's patches touch configure.ac, which would need its automake).
    (cd "$mwork/openmpi-$OMPI_VERSION" && ./configure -q --prefix="$MPI_PREFIX" --with-cuda="$CUDA_HOME" \
        --disable-mpi-fortran --disable-oshmem --without-ucx > "$mwork/configure.log" 2>&1 &&
       make -s -j"$(nproc)" > "$mwork/make.log" 2>&1 && make -s install >> "$mwork/make.log" 2>&1) ||
      { tail -40 "$mwork"/*.log >&2; exit 1; }
    echo "$MPI_KEY" > "$MPI_PREFIX/.taskdycore-stamp"
    rm -rf "$mwork"
  fi
  mpi_opts=(--with-mpicc="$MPI_PREFIX/bin/mpicc" --with-mpiexec="$MPI_PREFIX/bin/mpiexec")
fi

# ---- 3. StarPU ----------------------------------------------------------------------------
if [ $need_src -eq 1 ]; then
  log "building StarPU $STARPU_VERSION ($STARPU_KEY) into $STARPU_PREFIX (about 5 minutes on 2 cores)"
  work=$(mktemp -d "${TMPDIR:-/tmp}/starpu-build.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && apt-get source -q "starpu=$STARPU_DEBIAN_VERSION" >/dev/null 2>&1)
  src=$(find "$work" -maxdepth 1 -type d -name "starpu-$STARPU_VERSION*" | head -n1)
  [ -n "$src" ] || { log "apt-get source starpu failed"; exit 1; }
  # tools/patches/ (the list: deps.env): CUDA 13 build fixes, a yielding MPI progress thread
  # (STARPU_MPI_PROGRESS_YIELD, which graph/runtime/runtime.cpp sets where a rank's threads outnumber
  # its cores), and early messages copied into GPU memory where a CUDA-aware MPI receives there.
  for p in "${STARPU_PATCHES[@]}"; do
    (cd "$src" && patch -p1 -s < "$p")
  done
  cuda_opts=(--disable-cuda)
  if [ "$STARPU_CUDA" = yes ]; then
    cuda_opts=(--enable-cuda --with-cuda-dir="$CUDA_HOME" --enable-maxcudadev=8)
  fi
  rm -rf "$STARPU_PREFIX"
  (cd "$src" && ./configure -q --prefix="$STARPU_PREFIX" \
      "${cuda_opts[@]}" ${mpi_opts[@]+"${mpi_opts[@]}"} --with-fxt --enable-mpi \
      --enable-maxcpus=128 --enable-maxbuffers=16 --enable-maxnodes=16 \
      --disable-opencl --disable-fortran --disable-build-doc --disable-build-examples \
      --disable-build-tests --disable-starpufft --disable-socl --disable-hdf5 --disable-leveldb \
      --without-x --disable-glpk --disable-valgrind --disable-papi --disable-openmp \
      > "$work/configure.log" 2>&1) || { tail -40 "$work/configure.log" >&2; exit 1; }
  (cd "$src" && make -s -j"$(nproc)" > "$work/make.log" 2>&1 && make -s install >> "$work/make.log" 2>&1) \
      || { tail -60 "$work/make.log" >&2; exit 1; }
  echo "$STARPU_KEY" > "$STARPU_STAMP"
  log "StarPU installed in $STARPU_PREFIX"
else
  log "StarPU $STARPU_KEY already in $STARPU_PREFIX"
fi
echo "$STARPU_PREFIX"
