#!/usr/bin/env bash
# clpeak's full run (every test) on platform 0, the only one visible: global memory bandwidth,
# single and double precision compute, integer and fast-integer compute (five widths each),
# transfer bandwidth (eight figures) and kernel launch latency. Every figure must be printed as
# a number and nothing may report an error. clpeak sizes its work by the device's compute units
# and work-group limits, which now are the starting backend's: about 60 s through hetGPU on PoCL
# here (it never finished in 400 s while the device reported 16 compute units).
set -u
out=$(timeout 800 clpeak -p 0 -d 0 2>&1); rc=$?
echo "$out"
fail=0
[ $rc -eq 0 ] || { echo "clpeak exited with $rc"; fail=1; }
num='[0-9]+(\.[0-9]+)?'
count() { echo "$out" | grep -Ec "^\s*$1\s*:\s*$num\s*\$"; }
expect() { # what, pattern, how many
  local n; n=$(count "$2")
  [ "$n" -eq "$3" ] || { echo "expected $3 '$1' figures, got $n"; fail=1; }
}
for section in "Global memory bandwidth" "Single-precision compute" "Double-precision compute" \
               "Integer compute (GIOPS)" "Integer compute Fast 24bit" "Transfer bandwidth"; do
  echo "$out" | grep -qF "$section" || { echo "no '$section' section"; fail=1; }
done
expect "floatN" '(float|float[0-9]+)' 10      # bandwidth and single precision
expect "doubleN" '(double|double[0-9]+)' 5
expect "intN" '(int|int[0-9]+)' 10            # integer and fast 24-bit integer
expect "transfer" '(enqueue[A-Za-z]+(\(after write\)|\(for read\))?( non-blocking)?|memcpy (from|to) mapped ptr)' 8
echo "$out" | grep -Eq "^\s*Kernel launch latency\s*:\s*$num\s*us" || { echo "no kernel launch latency figure"; fail=1; }
if echo "$out" | grep -Ei 'error|failed|exception' ; then echo "clpeak printed errors (above)"; fail=1; fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
