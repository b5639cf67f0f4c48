#!/usr/bin/env bash
# A short clpeak run (single-precision compute and global bandwidth) on platform 0 (the only one
# visible): it must print figures and no errors.
set -u
out=$(timeout 900 clpeak -p 0 -d 0 --compute-sp --global-bandwidth 2>&1); rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "clpeak exited with $rc"; fail=1; }
n=$(echo "$out" | grep -Ec '^\s*(float|float[0-9]+)\s*:\s*[0-9]+(\.[0-9]+)?\s*$')
[ "$n" -ge 5 ] || { echo "expected at least 5 'floatN : number' lines, got $n"; fail=1; }
if echo "$out" | grep -Ei 'error|failed|exception' ; then echo "clpeak printed errors (above)"; fail=1; fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
