#!/usr/bin/env bash
# A short clpeak run on platform 0 (the only one visible): global memory bandwidth (five
# floatN figures) and kernel launch latency; it must print all six numbers and no errors.
# The compute tests are left out: clpeak sizes them by the device's compute units, and the
# virtual device reports 16 whatever runs it, so on a 2-core machine one precision alone takes
# about 15 minutes through hetGPU (docs/conformance.md). About 50 s through hetGPU here.
set -u
out=$(timeout 600 clpeak -p 0 -d 0 --global-bandwidth --kernel-latency 2>&1); rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "clpeak exited with $rc"; fail=1; }
n=$(echo "$out" | grep -Ec '^\s*(float|float[0-9]+)\s*:\s*[0-9]+(\.[0-9]+)?\s*$')
[ "$n" -ge 5 ] || { echo "expected 5 'floatN : number' bandwidth lines, got $n"; fail=1; }
echo "$out" | grep -Eq '^\s*Kernel launch latency\s*:\s*[0-9]+(\.[0-9]+)?\s*us' || { echo "no kernel launch latency figure"; fail=1; }
if echo "$out" | grep -Ei 'error|failed|exception' ; then echo "clpeak printed errors (above)"; fail=1; fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
