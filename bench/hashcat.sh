#!/usr/bin/env bash
# hashcat's benchmark through hetGPU beside the vendor's platform directly, alternating runs.
# Usage: bench/hashcat.sh [BUILD_DIR] [ROUNDS] [MODE...]    (NATIVE_ICD: the vendor's .icd file,
# default /etc/OpenCL/vendors/pocl.icd)
#
# hashcat -b reports the speed of its last iteration alone (status_get_hashes_msec_dev_benchmark:
# one kernel launch and the read after it), which on a shared virtual machine moves by 25% from
# run to run. So besides that figure each run's kernel launches are timed with a uprobe on the
# ICD loader's clEnqueueNDRangeKernel (root and perf needed; without them only hashcat's figures
# are printed): the mean interval between launches over the last 3.5 s of the benchmark (its
# window is 4 s), the same sequence of launches on both sides, and the ratio native / hetGPU
# (above 1: hetGPU is faster). The uprobe, once made, stays until `perf probe -d`.
set -uo pipefail
build=${1:-build}; rounds=${2:-3}; shift 2 2>/dev/null || shift $#
modes=("$@"); [ ${#modes[@]} -gt 0 ] || modes=(0 1400 1800)
native=${NATIVE_ICD:-/etc/OpenCL/vendors/pocl.icd}
libopencl=$(ldconfig -p | awk '/libOpenCL\.so\.1 / {print $NF; exit}')
probe=probe_libOpenCL:clEnqueueNDRangeKernel
data=$(mktemp)
trap 'rm -f "$data"' EXIT
timed=0
if command -v perf > /dev/null && [ -n "$libopencl" ] &&
   { perf probe -l 2>/dev/null | grep -q "$probe" || perf probe -q -x "$libopencl" clEnqueueNDRangeKernel 2>/dev/null; }; then
  timed=1
else
  echo "(no uprobe on clEnqueueNDRangeKernel: hashcat's own figures only)"
fi

# one run: prints "MEAN_US SPEED_TEXT"
run() {
  local speed
  if [ $timed = 1 ]; then
    speed=$(OCL_ICD_VENDORS=$1 perf record -q -e "$probe" -o "$data" hashcat -b -m "$2" --force 2>&1 | grep "Speed.#1")
    local mean
    mean=$(perf script -i "$data" -F time 2>/dev/null | python3 -c '
import sys
t = [float(l.strip().rstrip(":")) for l in sys.stdin if l.strip()]
w = [x for x in t if x > t[-1] - 3.5] if t else []
print(f"{(w[-1] - w[0]) / (len(w) - 1) * 1e6:.1f}" if len(w) > 1 else "-")')
    echo "$mean ${speed#*: }"
  else
    speed=$(OCL_ICD_VENDORS=$1 hashcat -b -m "$2" --force 2>&1 | grep "Speed.#1")
    echo "- ${speed#*: }"
  fi
}

for m in "${modes[@]}"; do
  for r in $(seq 1 "$rounds"); do
    read -r hg_us hg_speed <<< "$(run "$build/vendors" "$m")"
    read -r nat_us nat_speed <<< "$(run "$native" "$m")"
    ratio=$(awk -v n="$nat_us" -v h="$hg_us" 'BEGIN { if (n == "-" || h == "-") print "-"; else printf "%.3f", n / h }')
    printf -- "-m %-5s round %d: launch interval hetGPU %s us, native %s us, ratio %s | hetGPU %s | native %s\n" \
      "$m" "$r" "$hg_us" "$nat_us" "$ratio" "$hg_speed" "$nat_speed"
  done
done
