#!/usr/bin/env bash
# Runs the suite against PoCL directly and against hetGPU, prints the results side by side and
# fails if hetGPU fails a test that PoCL passes, unless exceptions.txt lists it with a reason.
#   compare.sh [BUILD_DIR] [extra runner options, e.g. --area math]
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../../build-conf}; shift || true
SUITE=$BUILD/conformance/suite/hg_suite
SEED=${HETGPU_TEST_SEED:-$(date +%s)}
tmp=$(mktemp -d)
OCL_ICD_VENDORS=/etc/OpenCL/vendors "$SUITE" --platform Portable --seed "$SEED" "$@" > "$tmp/pocl.txt" 2>&1
OCL_ICD_VENDORS=$BUILD/vendors HETGPU_CACHE_DIR=$BUILD/test-cache "$SUITE" --platform hetGPU --seed "$SEED" "$@" > "$tmp/hetgpu.txt" 2>&1
status() { grep -E '^(PASS|FAIL|SKIP) ' "$1" | sed -E 's/^(PASS|FAIL|SKIP) ([^: ]+).*/\2 \1/' | sort; }
status "$tmp/pocl.txt" > "$tmp/p"; status "$tmp/hetgpu.txt" > "$tmp/h"
join -a1 -a2 -e MISSING -o 0,1.2,2.2 "$tmp/p" "$tmp/h" > "$tmp/both"
echo "seed $SEED"
printf '%-44s %-8s %-8s\n' test PoCL hetGPU
awk '{printf "%-44s %-8s %-8s\n", $1, $2, $3}' "$tmp/both"
echo; echo "PoCL:   $(tail -1 "$tmp/pocl.txt")"; echo "hetGPU: $(tail -1 "$tmp/hetgpu.txt")"
regress=0
while read -r t p h; do
  if [ "$p" = PASS ] && [ "$h" != PASS ] && [ "$h" != SKIP ]; then
    if grep -Eq "^$t( |$)" "$HERE/exceptions.txt"; then echo "excepted: $t ($(grep -E "^$t( |$)" "$HERE/exceptions.txt" | cut -d' ' -f2-))";
    else echo "REGRESSION: $t passes on PoCL, $h on hetGPU: $(grep -E "^FAIL $t:" "$tmp/hetgpu.txt" | cut -c1-300)"; regress=$((regress+1)); fi
  fi
done < "$tmp/both"
rm -rf "$tmp"
echo "$regress regressions against PoCL"
[ $regress -eq 0 ]
