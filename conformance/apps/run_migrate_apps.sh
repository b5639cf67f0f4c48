#!/usr/bin/env bash
# Real applications moved between backends from outside while they run (cl_hetgpu_migrate's
# outside trigger): each runs unmodified against the hetGPU device, and hetgpu-ctl migrates its
# process back and forth between PoCL and the RISC-V many-core until it exits. The application's
# own checks must pass, and at least two moves must have happened while it ran.
# HG_MIGRATE_BACKENDS lists the backends to cycle through (default: riscv vendor:Portable).
# Usage: run_migrate_apps.sh HETGPU_CTL HETGPU_DEMO TEST_PYOPENCL_PY
set -u
ctl=$1; demo=$2; pyprog=$3
export HETGPU_CONTROL_DIR; HETGPU_CONTROL_DIR=$(mktemp -d)
trap 'rm -rf "$HETGPU_CONTROL_DIR"' EXIT
failed=0

# name, then the command: runs it in the background and moves it until it exits
move_while_running() {
  local name=$1; shift
  local log="$HETGPU_CONTROL_DIR/$name.log"
  "$@" > "$log" 2>&1 &
  local pid=$! moves=0 tries=0 out="(none: it ended before its first move)"
  # its socket appears with its first context
  while kill -0 "$pid" 2>/dev/null && ! "$ctl" ping "$pid" >/dev/null 2>&1; do sleep 0.05; done
  while kill -0 "$pid" 2>/dev/null; do
    for be in ${HG_MIGRATE_BACKENDS:-riscv vendor:Portable}; do
      out=$("$ctl" migrate "$pid" "$be" 2>&1) && moves=$((moves + 1))
      tries=$((tries + 1))
      sleep 0.2
    done
  done
  wait "$pid"; local rc=$?
  if [ $rc -eq 0 ] && [ $moves -ge 2 ]; then
    echo "ok   $name: its checks passed, moved $moves times ($tries requests)"
  else
    echo "FAIL $name: exit $rc, moved $moves times ($tries requests); last reply: $out"
    tail -20 "$log"; failed=$((failed + 1))
  fi
}

move_while_running hetgpu-demo "$demo" --repeat "${HG_DEMO_REPEAT:-150}"
if python3 -c "import pyopencl" 2>/dev/null; then
  HG_PYOPENCL_REPEAT=4 PYOPENCL_NO_CACHE=1 move_while_running pyopencl python3 "$pyprog"
fi
[ $failed -eq 0 ]
