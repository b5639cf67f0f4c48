#!/usr/bin/env bash
# Runs on the GPU machine (see docs/gpu-runs.md): unpacks the Debian runtime libraries from
# .gpubundle/, registers NVIDIA's OpenCL, and runs the tests and benchmarks through hetGPU on
# each vendor backend there. Logs go to $OUT (or ./gpu-logs).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
logs=${OUT:-$root/gpu-logs}; mkdir -p "$logs"
dl=/tmp/hg-debs; mkdir -p $dl
for f in .gpubundle/debs/*.deb; do dpkg -x "$f" $dl; done
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
mkdir -p /tmp/hg-vendors && echo "$root/.gpubundle/bin/libhetgpu.so.1" > /tmp/hg-vendors/hetgpu.icd
# CUDA's own libOpenCL comes first on this machine's path and ignores OCL_ICD_VENDORS
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:$dl/usr/lib/x86_64-linux-gnu:$dl/usr/lib/llvm-15/lib:$root/.gpubundle/bin
export HETGPU_CLANG=$dl/usr/lib/llvm-15/bin/clang-15
export HETGPU_CACHE_DIR=/tmp/hg-cache HETGPU_VENDORS=/etc/OpenCL/vendors
export OCL_ICD_VENDORS=/tmp/hg-vendors
B=$root/.gpubundle/bin
{ nvidia-smi -L; ls /etc/OpenCL/vendors; } > "$logs/machine.txt" 2>&1
run() { # name, then the command
  local name=$1; shift
  local t0=$(date +%s%N)
  timeout 300 "$@" > "$logs/$name.log" 2>&1; local rc=$?
  printf '%-40s rc=%-4s %6sms  %s\n' "$name" "$rc" "$(( ($(date +%s%N) - t0) / 1000000 ))" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/$name.log" | tail -1)" | tee -a "$logs/summary.txt"
}
for backend in "vendor:NVIDIA" "vendor:Portable"; do
  export HETGPU_BACKEND=$backend
  tag=${backend#vendor:}
  run "$tag.demo" $B/hetgpu-demo
  for t in $B/api_* $B/buffers_* $B/event_* $B/queue_*; do run "$tag.$(basename $t)" $t; done
done
export HETGPU_BACKEND=vendor:NVIDIA
if [ -d .whl ]; then
  python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && \
    PYTHONPATH=/tmp/site PYOPENCL_NO_CACHE=1 run NVIDIA.pyopencl python3 $B/test_pyopencl.py
fi
run NVIDIA.vendor_backend_test $B/vendor_backend_test
# bench: hetGPU beside NVIDIA's OpenCL directly, both visible to the loader
cp /etc/OpenCL/vendors/nvidia.icd /tmp/hg-vendors/
HETGPU_BENCH_ITERS=20 run NVIDIA.bench $B/bench-kernels NVIDIA
cat "$logs/summary.txt"
