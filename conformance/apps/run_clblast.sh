#!/usr/bin/env bash
# CLBlast's own correctness tests (Debian clblast-tests) on platform 0, device 0: each routine is
# run in single, double and complex precisions and compared with the CPU reference BLAS
# (-cblas 1: Debian's libblas3) within 0.5% relative / 0.001 absolute. Level-1 routines and the
# gemv level-2 routine fit the CI budget on two cores; xgemm's test takes far longer on PoCL.
set -u
ROUTINES=${CLBLAST_ROUTINES:-"xaxpy xdot xnrm2 xscal xasum xcopy xswap xgemv"}
passed=0; failed=0
for r in $ROUTINES; do
  out=$(timeout 600 clblast_test_$r -platform 0 -device 0 -cblas 1 2>&1); rc=$?
  clean=$(echo "$out" | sed 's/\x1b\[[0-9;]*m//g')
  p=$(echo "$clean" | grep -E '^\s+[0-9]+ test\(s\) passed' | awk '{s+=$1} END {print s+0}')
  f=$(echo "$clean" | grep -E '^\s+[0-9]+ test\(s\) failed' | awk '{s+=$1} END {print s+0}')
  if [ $rc -eq 0 ] && [ "$f" -eq 0 ] && [ "$p" -gt 0 ]; then
    echo "ok   $r ($p cases passed)"; passed=$((passed+1))
  else
    echo "FAIL $r (rc $rc, $p cases passed, $f failed)"; echo "$clean" | grep -E 'X|/|\\\\|Error|error' | head -5; failed=$((failed+1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
