#!/usr/bin/env bash
# Builds and runs the whole-path fuzzer fuzz_ir_path (docs/fuzzing.md) on every core of this
# machine for a fixed time, e.g. 10 minutes on a 16-core machine for about 2.5 hours of CPU:
#
#   bash tools/fuzz/run_path_fuzzer.sh [SECONDS] [WORKERS]      (defaults: 600, nproc)
#
# Needs clang-15 with libFuzzer and LLVM 15's static libraries (Debian: clang-15, llvm-15-dev).
# The binary links LLVM statically, so it can be copied to and run on a machine without LLVM's
# shared libraries (it needs libstdc++, libz and libtinfo). Environment: BUILD (default
# build-ir-fuzz), WORK (the working corpus, default /tmp/fz/path), ARTIFACTS (crash inputs,
# default /tmp/fz/art). Each job's log is fuzz-<n>.log in the current directory; the closing
# lines summarise executions and findings. Exit status: 0 when no job found anything.
set -euo pipefail
seconds=${1:-600}
workers=${2:-$(nproc)}
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$root/build-ir-fuzz}
work=${WORK:-/tmp/fz/path}
artifacts=${ARTIFACTS:-/tmp/fz/art}

if [ ! -x "$build/tools/fuzz/fuzz_ir_path" ]; then
  CC=clang-15 CXX=clang++-15 cmake -S "$root" -B "$build" -DHETGPU_FUZZ=ON >/dev/null
  cmake --build "$build" --target fuzz_ir_path -j "$workers"
fi
mkdir -p "$work" "$artifacts"
rm -f fuzz-*.log
# -jobs = -workers: one job per core, each for the whole time (a job that finds a crash stops
# and leaves its input in $artifacts); they share the working corpus.
"$build/tools/fuzz/fuzz_ir_path" -jobs="$workers" -workers="$workers" -max_total_time="$seconds" \
  -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 -artifact_prefix="$artifacts/" \
  "$work" "$root/tools/fuzz/corpus" >/dev/null 2>&1 || true
execs=0
for log in fuzz-*.log; do
  n=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  execs=$((execs + ${n:-0}))
done
found=$(grep -l -E "ERROR: (AddressSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error:|deadly signal|Test unit written" fuzz-*.log || true)
echo "jobs: $workers, seconds: $seconds, executions: $execs"
if [ -n "$found" ]; then
  echo "findings in: $found (inputs in $artifacts)"
  exit 1
fi
echo "no crash, no sanitizer report"
