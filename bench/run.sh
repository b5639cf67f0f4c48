#!/usr/bin/env bash
# Runs the benchmarks with hetGPU (from the build tree) and the system's vendor platforms both
# visible to the ICD loader. Usage: bench/run.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-kernels" "$native"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-footprint" "$native"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-round" "$native"
# CLBlast's own kernels, where Debian's libclblast-dev was there to build it
if [ -x "$build/bench/bench-clblast" ]; then
  OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-clblast" "$native"
fi
