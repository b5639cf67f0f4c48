#!/usr/bin/env bash
# Lists the library's functions that run on every enqueue, wait and transfer (bench-enqueue's
# bursts, latency and copy modes under cachegrind at three sizes: a function whose instruction
# count grows in step with the operations is on the path; one-off work in between, a build or a
# cache's clean-up, does not grow in step), for icd/hot_functions.txt: the build places them together
# (icd/CMakeLists.txt), so that a launch touches a few kilobytes of our code instead of lines
# spread over the whole library, which cost the vendor's enqueue its own instruction cache.
# Usage: bench/hot_functions.sh [BUILD_DIR] > icd/hot_functions.txt (then keep its two comment lines)
set -euo pipefail
build=${1:-build}; sizes=(300 600 900)
vendors=$(mktemp -d); out=$(mktemp -d)
trap 'rm -rf "$vendors" "$out"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
for mode in bursts latency copy; do
  for n in "${sizes[@]}"; do
    OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors valgrind --tool=cachegrind --cache-sim=no \
      --cachegrind-out-file="$out/$mode-$n" "$build/bench/bench-enqueue" hetGPU "$mode" "$n" > /dev/null 2> "$out/log" ||
      { cat "$out/log" >&2; exit 1; }
  done
done
# cachegrind's fl= records name the source file (ours: under the source tree), fn= the function
python3 - "$out" "$(realpath "$(dirname "$0")/..")" "${sizes[@]}" <<'PY'
import sys, collections
out, src = sys.argv[1], sys.argv[2]
n1, n2, n3 = map(int, sys.argv[3:6])
def per_function(path):
    counts, fl, fn = collections.Counter(), '', ''
    for line in open(path):
        if line.startswith('fl='): fl = line[3:].strip()
        elif line.startswith('fn='): fn = line[3:].strip()
        elif line[:1].isdigit() and fl.startswith(src):
            counts[fn] += int(line.split()[1])
    return counts
seen = []
for mode in ('bursts', 'latency', 'copy'):
    a, b, c = (per_function(f'{out}/{mode}-{n}') for n in (n1, n2, n3))
    def in_step(f):
        first, second = (b[f] - a[f]) / (n2 - n1), (c[f] - b[f]) / (n3 - n2)
        return min(first, second) >= 0.9 and max(first, second) <= 1.5 * min(first, second)
    grown = sorted(((c[f] - a[f]) / (n3 - n1), f) for f in c if in_step(f))
    for per_op, f in reversed(grown):
        name = f.split('.')[0] if '.part.' in f or '.constprop.' in f or '.isra.' in f else f
        if name not in seen and name != 'main':
            seen.append(name)
print('\n'.join(seen))
PY
