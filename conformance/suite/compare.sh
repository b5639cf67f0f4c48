#!/usr/bin/env bash
# Runs the suite against PoCL directly and against hetGPU, prints the results side by side and
# fails if hetGPU fails a test that PoCL passes, unless exceptions.txt lists it with a reason.
#   compare.sh [BUILD_DIR] [extra runner options, e.g. --area math]
# COMPARE_KEEP=PREFIX keeps both runs' full output as PREFIX.pocl.txt and PREFIX.hetgpu.txt.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
BUILD=${1:-$HERE/../../build-conf}; shift || true
SUITE=$BUILD/conformance/suite/hg_suite
SEED=${HETGPU_TEST_SEED:-$(date +%s)}
tmp=$(mktemp -d)
OCL_ICD_VENDORS=/etc/OpenCL/vendors "$SUITE" --platform Portable --seed "$SEED" "$@" > "$tmp/pocl.txt" 2>&1
OCL_ICD_VENDORS=$BUILD/vendors HETGPU_CACHE_DIR=$BUILD/test-cache "$SUITE" --platform hetGPU --seed "$SEED" "$@" > "$tmp/hetgpu.txt" 2>&1
status() { grep -E '^(PASS|FAIL|SKIP|XFAIL) ' "$1" | sed -E 's/^(PASS|FAIL|SKIP|XFAIL) ([^: ]+).*/\2 \1/' | sort; }
status "$tmp/pocl.txt" > "$tmp/p"; status "$tmp/hetgpu.txt" > "$tmp/h"
join -a1 -a2 -e MISSING -o 0,1.2,2.2 "$tmp/p" "$tmp/h" > "$tmp/both"
echo "seed $SEED"
printf '%-44s %-8s %-8s\n' test PoCL hetGPU
awk '{printf "%-44s %-8s %-8s\n", $1, $2, $3}' "$tmp/both"
# the two per-area tables side by side: passed/failed/skipped and seconds of each run
table() { grep -E '^[a-z_]+ +\| +[0-9]+ \|' "$1" | tr -d ' ' | tr '|' ' ' | awk '{print $1, $2, $3 + $6, $4, $5}'; }
echo
printf '| %-15s | %-22s | %-22s |\n' area "PoCL pass/fail/skip (s)" "hetGPU pass/fail/skip (s)"
printf '|%s|%s|%s|\n' "-----------------" "------------------------" "------------------------"
join -a1 -a2 -e - -o 0,1.2,1.3,1.4,1.5,2.2,2.3,2.4,2.5 <(table "$tmp/pocl.txt" | sort) <(table "$tmp/hetgpu.txt" | sort) |
  awk '{printf "| %-15s | %-22s | %-22s |\n", $1, $2"/"$3"/"$4" ("$5")", $6"/"$7"/"$8" ("$9")"}'
echo; echo "PoCL:   $(tail -1 "$tmp/pocl.txt"), $(grep '^wall time' "$tmp/pocl.txt")"
echo "hetGPU: $(tail -1 "$tmp/hetgpu.txt"), $(grep '^wall time' "$tmp/hetgpu.txt")"
if [ -n "${COMPARE_KEEP:-}" ]; then cp "$tmp/pocl.txt" "$COMPARE_KEEP.pocl.txt"; cp "$tmp/hetgpu.txt" "$COMPARE_KEEP.hetgpu.txt"; fi
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
