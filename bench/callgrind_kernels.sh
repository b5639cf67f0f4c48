#!/usr/bin/env bash
# Instructions of each bench kernel's compiled work-group function on a CPU platform (PoCL)
# through hetGPU beside the same platform building the source itself: one launch of
# bench-kernel-once under callgrind each way, the Ir of the function named after the kernel
# (PoCL's _pocl_kernel_NAME_workgroup). Instruction counts repeat exactly on a loaded machine.
# Usage: bench/callgrind_kernels.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING] [KERNELS...]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}; shift $(( $# < 2 ? $# : 2 ))
kernels=("$@"); [ ${#kernels[@]} -gt 0 ] || kernels=(vadd sgemm reduce stencil nbody triad xaxpy hashint)
vendors=$(mktemp -d); out=$(mktemp -d)
trap 'rm -rf "$vendors" "$out"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
export OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors
kernel_ir() { # platform kernel -> Ir of its work-group function
  local run=("$build/bench/bench-kernel-once" "$1" "$2")
  "${run[@]}" > /dev/null # builds and caches outside valgrind
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "${run[@]}" > /dev/null 2> "$out/log" ||
    { cat "$out/log" >&2; exit 1; }
  callgrind_annotate "$out/cg.out" 2> /dev/null | awk -v k="_kernel_$2_workgroup" \
    'index($0, k) && !/_fast/ && !found {gsub(",", "", $1); ir = $1; found = 1} END {print found ? ir : 0}'
}
printf "%-10s %16s %16s %8s\n" kernel "hetGPU Ir" "native Ir" ratio
for k in "${kernels[@]}"; do
  h=$(kernel_ir hetGPU "$k"); v=$(kernel_ir "$native" "$k")
  printf "%-10s %16d %16d %8.3f\n" "$k" "$h" "$v" "$(echo "$h / ($v + ($v == 0))" | bc -l)"
done
