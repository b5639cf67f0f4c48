#!/usr/bin/env bash
# Runs the benchmarks with hetGPU (from the build tree) and the system's vendor platforms both
# visible to the ICD loader. Usage: bench/run.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
# the system's vendors, then the build tree's hetGPU (an installed hetgpu.icd must not win)
for f in /etc/OpenCL/vendors/*.icd; do [ "$(basename "$f")" = hetgpu.icd ] || cp "$f" "$vendors/"; done
cp "$build/vendors/hetgpu.icd" "$vendors/"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-kernels" "$native"
