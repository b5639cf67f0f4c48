#!/usr/bin/env bash
# Installs the Debian 12 packages hetGPU builds and tests with (needs root; skips what is there).
set -euo pipefail
PKGS=(build-essential cmake pkg-config ocl-icd-opencl-dev ocl-icd-libopencl1 opencl-headers
      llvm-15-dev libclang-15-dev clang-15 clang-14 libclang-rt-14-dev spirv-tools llvm-spirv-15 libhwloc-dev
      pocl-opencl-icd clinfo python3-pyopencl python3-numpy clpeak clblast-tests libclblast-dev lld-15 qemu-user ffmpeg)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
fi
