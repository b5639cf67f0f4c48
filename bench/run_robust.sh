#!/usr/bin/env bash
# What robust buffer access costs (HETGPU_ROBUST=1, docs/robust-access.md): bench-kernels run
# twice, hetGPU plain then hetGPU robust, each against the native platform with their rounds
# interleaved; per kernel the two hetGPU/native ratios and their quotient robust/plain (the
# native figures of each run cancel most of what the machine's load does between the runs).
# Both runs use HETGPU_SAFE_POINTS=0: robust kernels have no stoppable form, so plain launches
# are the plain form too. Usage: bench/run_robust.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/vendors"
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$dir/vendors"
for form in plain robust; do
  robust=0; [ "$form" = robust ] && robust=1
  OCL_ICD_VENDORS="$dir/vendors" HETGPU_VENDORS=/etc/OpenCL/vendors HETGPU_SAFE_POINTS=0 HETGPU_ROBUST=$robust \
    "$build/bench/bench-kernels" "$native" | tee "$dir/$form.txt"
done
# the lines "kernel NAME device|wall  H ms  N ms  RATIO ...": RATIO is the 8th field
awk -v plain="$dir/plain.txt" 'BEGIN {
    while ((getline line < plain) > 0) { split(line, f, " "); if (f[1] == "kernel") r[f[2] " " f[3]] = f[8] }
    printf "\n%-24s %14s %14s %14s\n", "kernel", "plain/native", "robust/native", "robust/plain"
  }
  $1 == "kernel" && (($2 " " $3) in r) {
    printf "%-24s %14.3f %14.3f %14.3f\n", $2 " " $3, r[$2 " " $3], $8, $8 / r[$2 " " $3]
  }' "$dir/robust.txt"
