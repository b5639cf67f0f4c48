#!/usr/bin/env bash
# Host instructions the RISC-V simulator spends per kernel of bench-simulators: callgrind
# counts only inside the interpreter (hg_sim_interp_*, its slow paths included), one host
# thread, hetGPU alone visible; one figure per kernel (its untimed launch + HETGPU_BENCH_ITERS
# launches; saxpy: 1 + 1). Deterministic, so it compares builds on a loaded machine where wall
# times do not. Usage: bench/simulators/callgrind.sh [BUILD_DIR]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cp "$build/vendors/hetgpu.icd" "$out/"
( cd "$out" && OCL_ICD_VENDORS="$out" HETGPU_VENDORS=/etc/OpenCL/vendors HETGPU_SIM_THREADS=1 \
    HETGPU_BENCH_ITERS=${HETGPU_BENCH_ITERS:-3} HETGPU_CACHE_DIR="$out/cache" valgrind --tool=callgrind \
    --toggle-collect='hg_sim_interp_*' --dump-before=clEnqueueReadBuffer --callgrind-out-file="$out/cg.out" \
    "$build/bench/simulators/bench-simulators" > "$out/stdout" 2> "$out/log" ) || { cat "$out/log" >&2; exit 1; }
# a dump before each read-back (the loader's entry point and hetGPU's): the kernels' parts are the non-empty ones
names=(saxpy reduce matmul mandel)
i=0
for f in $(ls "$out"/cg.out.* | sort -t. -k3 -n); do
  ir=$(awk '/^(summary|totals):/ {print $2; exit}' "$f")
  if [ "${ir:-0}" != 0 ] && [ $i -lt 4 ]; then printf "%-8s %14s host instructions\n" "${names[$i]}" "$ir"; i=$((i + 1)); fi
done
