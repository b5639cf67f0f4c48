#!/usr/bin/env bash
# Runs bench-simulators with hetGPU (build tree), PoCL and oclgrind visible to the ICD loader.
# Usage: bench/simulators/run.sh [BUILD_DIR]. oclgrind is Debian's package of that name.
set -euo pipefail
build=${1:-build}
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
cp "$build/vendors/hetgpu.icd" "$vendors/"
cp /etc/OpenCL/vendors/pocl.icd "$vendors/" 2>/dev/null || true
[ -e /usr/lib/oclgrind/liboclgrind-rt-icd.so ] && echo /usr/lib/oclgrind/liboclgrind-rt-icd.so > "$vendors/oclgrind.icd"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/simulators/bench-simulators"
