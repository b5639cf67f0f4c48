#!/usr/bin/env bash
# clinfo must list the hetGPU platform and its device, with no error lines.
set -u
out=$(clinfo 2>&1); rc=$?
echo "$out" | head -40
fail=0
[ $rc -eq 0 ] || { echo "clinfo exited with $rc"; fail=1; }
PLAT=${APP_PLATFORM:-hetGPU}; DEV=${APP_DEVICE:-hetGPU virtual device}  # PoCL check: Portable / pthread
echo "$out" | grep -Eq "^\s*Platform Name\s+$PLAT" || { echo "platform $PLAT not listed"; fail=1; }
echo "$out" | grep -Eq "^\s*Device Name\s+$DEV" || { echo "device $DEV not listed"; fail=1; }
if echo "$out" | grep -Ei 'error|invalid|failed' | grep -v 'Error Correction support' ; then echo "clinfo printed error lines (above)"; fail=1; fi
[ $fail -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
