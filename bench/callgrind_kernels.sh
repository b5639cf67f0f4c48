#!/usr/bin/env bash
# Instructions of each bench kernel's compiled work-group function on a CPU platform (PoCL)
# through hetGPU beside the same platform building the source itself: one launch of
# bench-kernel-once under callgrind each way, the Ir of the function named after the kernel
# (PoCL's _pocl_kernel_NAME_workgroup). Instruction counts repeat exactly on a loaded machine.
# With the default kernels and bench-clblast built, also CLBlast's own: one CLBlastSgemm at 256
# (its XgemmDirectTN) and one CLBlastSaxpy of 1 M floats (its XaxpyFastest), `bench-clblast --once`.
# Usage: bench/callgrind_kernels.sh [BUILD_DIR] [NATIVE_PLATFORM_SUBSTRING] [KERNELS...]
set -euo pipefail
build=${1:-build}; native=${2:-Portable}; shift $(( $# < 2 ? $# : 2 ))
kernels=("$@"); clblast=0
[ ${#kernels[@]} -gt 0 ] || { kernels=(vadd sgemm reduce stencil nbody triad xaxpy hashint); clblast=1; }
vendors=$(mktemp -d); out=$(mktemp -d)
trap 'rm -rf "$vendors" "$out"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
export OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors
kernel_ir() { # work-group function, then the command -> Ir of that function
  local fn=$1; shift
  "$@" > /dev/null # builds and caches outside valgrind
  valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" "$@" > /dev/null 2> "$out/log" ||
    { cat "$out/log" >&2; exit 1; }
  callgrind_annotate "$out/cg.out" 2> /dev/null | awk -v k="_kernel_${fn}_workgroup" \
    'index($0, k) && !/_fast/ && !found {gsub(",", "", $1); ir = $1; found = 1} END {print found ? ir : 0}'
}
row() { # label, work-group function, then the command with PLATFORM where the platform goes
  local label=$1 fn=$2; shift 2
  local h v
  h=$(kernel_ir "$fn" "${@/PLATFORM/hetGPU}"); v=$(kernel_ir "$fn" "${@/PLATFORM/$native}")
  printf "%-14s %16d %16d %8.3f\n" "$label" "$h" "$v" "$(echo "$h / ($v + ($v == 0))" | bc -l)"
}
printf "%-14s %16s %16s %8s\n" kernel "hetGPU Ir" "native Ir" ratio
for k in "${kernels[@]}"; do row "$k" "$k" "$build/bench/bench-kernel-once" PLATFORM "$k"; done
if [ $clblast = 1 ] && [ -x "$build/bench/bench-clblast" ]; then
  row clblast-sgemm XgemmDirectTN "$build/bench/bench-clblast" --once PLATFORM sgemm
  row clblast-saxpy XaxpyFastest "$build/bench/bench-clblast" --once PLATFORM saxpy
fi
