#!/usr/bin/env bash
# Runs the benchmarks with hetGPU (from the build tree) and the system's vendor platforms both
# visible to the ICD loader. Usage: bench/run.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
cp "$build/vendors/hetgpu.icd" "$vendors/"
for f in /etc/OpenCL/vendors/*.icd; do cp "$f" "$vendors/"; done
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-kernels" "$native"
