#!/usr/bin/env bash
# Instructions per operation of bench-enqueue under callgrind, for hetGPU and the native
# platform: each mode runs with N1 and N2 iterations and the difference of the total
# instruction counts (all threads) is divided by N2 - N1, so set-up and teardown cancel out.
# Usage: bench/callgrind.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING] [MODES...]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}; shift $(( $# < 2 ? $# : 2 ))
modes=("$@"); [ ${#modes[@]} -gt 0 ] || modes=(latency stream copy)
n1=${HETGPU_CALLGRIND_N1:-100}; n2=${HETGPU_CALLGRIND_N2:-300}
vendors=$(mktemp -d); out=$(mktemp -d)
trap 'rm -rf "$vendors" "$out"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
total() { # platform mode iterations -> total Ir
  OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors valgrind --tool=callgrind \
    --callgrind-out-file="$out/cg.out" "$build/bench/bench-enqueue" "$1" "$2" "$3" > /dev/null 2> "$out/log" ||
    { cat "$out/log" >&2; exit 1; }
  awk '/^(summary|totals):/ {print $2; exit}' "$out/cg.out"
}
printf "%-10s %16s %16s %8s\n" mode "hetGPU Ir/op" "native Ir/op" ratio
for m in "${modes[@]}"; do
  total hetGPU "$m" 1 > /dev/null # fills the program cache: both counted runs then find it
  h=$(( ($(total hetGPU "$m" "$n2") - $(total hetGPU "$m" "$n1")) / (n2 - n1) ))
  v=$(( ($(total "$native" "$m" "$n2") - $(total "$native" "$m" "$n1")) / (n2 - n1) ))
  printf "%-10s %16d %16d %8.2f\n" "$m" "$h" "$v" "$(echo "$h / $v" | bc -l)"
done
