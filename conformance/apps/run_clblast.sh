#!/usr/bin/env bash
# CLBlast's own correctness tests (Debian clblast-tests) on platform 0, device 0. Each test
# program runs its routine in single, double, complex single and complex double precision (half
# only where the device has cl_khr_fp16) over CLBlast's built-in sizes, against the CPU reference
# BLAS (-cblas 1: Debian's libblas3) within 0.5% relative / 0.001 absolute. The test programs
# have no size options (only -full_test, which adds cases): the selection below is what fits
# the CI budget, about 4 minutes through hetGPU on two cores (docs/conformance.md).
# CLBLAST_ROUTINES overrides the list.
set -u
ROUTINES=${CLBLAST_ROUTINES:-"xaxpy xdot xnrm2 xscal xasum xcopy xswap xamax xhad xgemv xger xsymv xtrmv xgemm xsyrk"}
passed=0; failed=0
for r in $ROUTINES; do
  start=$(date +%s)
  out=$(timeout 600 clblast_test_$r -platform 0 -device 0 -cblas 1 2>&1); rc=$?
  secs=$(( $(date +%s) - start ))
  clean=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g')
  p=$(echo "$clean" | grep -E '^\s+[0-9]+ test\(s\) passed' | awk '{s+=$1} END {print s+0}')
  f=$(echo "$clean" | grep -E '^\s+[0-9]+ test\(s\) failed' | awk '{s+=$1} END {print s+0}')
  # precisions that ran cases (single and double at least)
  np=$(echo "$clean" | grep -Ec '^\s+[1-9][0-9]* test\(s\) passed')
  if [ $rc -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ] && [ "$np" -ge 2 ]; then
    echo "ok   $r ($p cases passed in $np precisions, ${secs} s)"; passed=$((passed+1))
  else
    echo "FAIL $r (rc $rc, $p cases passed in $np precisions, $f failed, ${secs} s)"
    echo "$clean" | grep -E 'X|/|\\\\|Error|error' | head -5; failed=$((failed+1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
