#!/usr/bin/env bash
# Runs on the GPU machine (see docs/gpu-runs.md): unpacks the Debian runtime libraries from
# .gpubundle/, registers NVIDIA's OpenCL, and runs the tests and benchmarks through hetGPU on
# NVIDIA's OpenCL (HETGPU_BACKEND=vendor:NVIDIA). Logs go to /tmp/gpu-logs, packed into
# $OUT/gpu-logs.tar.gz when $OUT is set (the device tool brings back only a few files).
# Usage: tools/gpu_run.sh [PHASE...]; phases: tests corpus suite bench submit riscv migrate stop stopbench robust ptx images
# (corpus modes: HG_CORPUS_MODES, default "ir api il")
# (default: all).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
phases=${*:-tests corpus suite bench submit riscv migrate stop stopbench}
logs=/tmp/gpu-logs; rm -rf "$logs"; mkdir -p "$logs"
dl=/tmp/hg-debs; mkdir -p $dl
for f in .gpubundle/debs/*.deb; do dpkg -x "$f" $dl; done
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
# hetGPU alone (tests), and hetGPU beside NVIDIA's OpenCL (corpus and suite references, bench)
mkdir -p /tmp/hg-vendors /tmp/hg-vendors-all
# the soname link, made again: a checkout that restores the bundle may turn it into a file
(cd .gpubundle/bin && ln -sf "$(ls libhetgpu.so.*.*.* | head -1)" libhetgpu.so.1)
echo "$root/.gpubundle/bin/libhetgpu.so.1" > /tmp/hg-vendors/hetgpu.icd
cp /tmp/hg-vendors/hetgpu.icd /etc/OpenCL/vendors/nvidia.icd /tmp/hg-vendors-all/
# CUDA's own libOpenCL comes first on this machine's path and ignores OCL_ICD_VENDORS
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:$dl/usr/lib/x86_64-linux-gnu:$dl/usr/lib/llvm-15/lib:$root/.gpubundle/bin
export HETGPU_CLANG=$dl/usr/lib/llvm-15/bin/clang-15 HETGPU_LLVM_SPIRV=$dl/usr/bin/llvm-spirv-15 HETGPU_SPIRV_VAL=$dl/usr/bin/spirv-val
export HETGPU_CACHE_DIR=/tmp/hg-cache HETGPU_VENDORS=/etc/OpenCL/vendors
export OCL_ICD_VENDORS=/tmp/hg-vendors HETGPU_BACKEND=vendor:NVIDIA
B=$root/.gpubundle/bin
[ -f "$B/libhg_vendor_under_test.so.0" ] && ln -sf libhg_vendor_under_test.so.0 "$B/libhg_vendor_under_test.so"
{ nvidia-smi -L; ls /etc/OpenCL/vendors; } > "$logs/machine.txt" 2>&1
run() { # name, limit in seconds, then the command
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s%N)
  timeout "$limit" "$@" > "$logs/$name.log" 2>&1; local rc=$?
  printf '%-32s rc=%-4s %7sms  %s\n' "$name" "$rc" "$(( ($(date +%s%N) - t0) / 1000000 ))" \
    "$(grep -E '^[0-9]+ passed, [0-9]+ failed|passed.*failed|^TOTAL|^total' "$logs/$name.log" | tail -1)" | tee -a "$logs/summary.txt"
}
for phase in $phases; do
  case $phase in
  tests)
    run demo 60 $B/hetgpu-demo
    for t in $B/api_* $B/buffers_* $B/event_* $B/queue_*; do
      [ "$(basename $t)" = api_binary_process ] || run "$(basename $t)" 60 $t
    done
    # a program binary written by one process and loaded by another
    HG_BINARY_STEP=write HG_BINARY_FILE=/tmp/hg-binary.bin run api_binary_write 60 $B/api_binary_process
    HG_BINARY_STEP=read HG_BINARY_FILE=/tmp/hg-binary.bin run api_binary_read 60 $B/api_binary_process
    run vendor_backend_test 60 $B/vendor_backend_test
    rm -rf /tmp/hg-cache-facts; HETGPU_CACHE_DIR=/tmp/hg-cache-facts run vendor_facts_test 60 $B/vendor_backend_test --facts
    if [ -d .whl ]; then
      python3 -m pip install -q --no-index --no-deps --no-compile --target /tmp/site .whl/*.whl && \
        PYTHONPATH=/tmp/site PYOPENCL_NO_CACHE=1 run pyopencl 120 python3 $B/test_pyopencl.py
    fi ;;
  corpus)
    # IR mode: the lowered kernels on NVIDIA against NVIDIA's build of the originals; API mode:
    # the originals through hetGPU (on NVIDIA) against NVIDIA directly. Files run in processes
    # of their own, so a kernel that faults NVIDIA's context takes only its own file down; the
    # areas run 8 at a time.
    # il: each file compiled to SPIR-V by clang + llvm-spirv, loaded with clCreateProgramWithIL
    for mode in ${HG_CORPUS_MODES:-ir api il}; do
      via=(); [ $mode = api ] && via=(--via hetGPU); [ $mode = il ] && via=(--via hetGPU --il)
      t0=$(date +%s)
      ls -d .gpubundle/kernels/*/ | sed 's,/$,,' | HG_CORPUS_PLATFORM=NVIDIA OCL_ICD_VENDORS=/tmp/hg-vendors-all \
        timeout 280 xargs -P 8 -I{} sh -c "$B/corpus_runner ${via[*]} --timeout 60 --exceptions .gpubundle/kernels/exceptions_nvidia.txt {} > $logs/corpus_${mode}_\$(basename {}).log 2>&1"
      cat $logs/corpus_${mode}_*.log > $logs/corpus_$mode.log
      printf '%-32s %7ss  %s passed, %s failed\n' "corpus_$mode" $(( $(date +%s) - t0 )) \
        "$(grep -c '^PASS' $logs/corpus_$mode.log)" "$(grep -c '^FAIL' $logs/corpus_$mode.log)" | tee -a "$logs/summary.txt"
      grep -h '^XFAIL\|^XPASS' $logs/corpus_$mode.log | cut -c1-100 | tee -a "$logs/summary.txt"
    done ;;
  suite)
    OCL_ICD_VENDORS=/tmp/hg-vendors-all run suite_nvidia 150 $B/hg_suite --platform NVIDIA --timeout 120
    run suite_hetgpu 150 $B/hg_suite --platform hetGPU --timeout 120 ;;
  submit)
    OCL_ICD_VENDORS=/tmp/hg-vendors-all run vendor_submit 120 $B/bench-vendor-submit NVIDIA ;;
  riscv)
    # the simulator's MIPS across the host's cores (docs/riscv-simulator.md)
    run riscv_sim_bench 200 $B/bench-riscv-sim --threads "$(nproc)" ;;
  migrate)
    # cl_hetgpu_migrate with every backend live: NVIDIA, PoCL (when registered) and riscv
    grep -h . /etc/OpenCL/vendors/*.icd > "$logs/vendors.txt" 2>&1
    [ -d /tmp/site ] && export PYTHONPATH=/tmp/site PYOPENCL_NO_CACHE=1
    for t in $B/migrate_*; do HG_MIGRATE_VENDOR=NVIDIA run "$(basename $t)_nvidia" 300 $t; done
    rm -rf /tmp/hg-cache-first-use # the vendors listed from their facts, NVIDIA loaded by a migration
    HETGPU_CACHE_DIR=/tmp/hg-cache-first-use HG_FIRST_USE_STEP=list run migrate_first_use_list 120 $B/migrate_vendor_first_use
    HETGPU_CACHE_DIR=/tmp/hg-cache-first-use HG_FIRST_USE_STEP=use HETGPU_BACKEND=riscv HG_MIGRATE_VENDOR=NVIDIA \
      run migrate_first_use 120 $B/migrate_vendor_first_use
    for t in $B/migrate_buffers $B/migrate_queue $B/migrate_checkpoint; do
      HETGPU_BACKEND=vendor:Portable HG_MIGRATE_VENDOR=Portable run "$(basename $t)_pocl" 300 $t
    done
    # the demo's default 150 rounds end within half a second on an H200 with its programs cached
    HG_DEMO_REPEAT=${HG_DEMO_REPEAT:-1500} HG_MIGRATE_BACKENDS="riscv vendor:NVIDIA vendor:Portable vendor:NVIDIA" run app_migrate 300 \
      bash $B/run_migrate_apps.sh $B/hetgpu-ctl $B/hetgpu-demo $B/test_pyopencl.py
    # NVIDIA's OpenCL visible beside hetGPU: the bench measures the PCIe floor through it
    [ "${HG_MIGRATE_BENCH:-1}" = 0 ] || OCL_ICD_VENDORS=/tmp/hg-vendors-all run bench_migrate 500 \
      $B/bench-migrate --max-mib 2048 --reps 3 ;;
  bench)
    OCL_ICD_VENDORS=/tmp/hg-vendors-all HETGPU_BENCH_ITERS=50 run bench 200 $B/bench-kernels NVIDIA ;;
  images)
    # the image areas (docs/images.md) on NVIDIA directly and through hetGPU over it
    OCL_ICD_VENDORS=/tmp/hg-vendors-all run images_nvidia 150 $B/hg_suite --platform NVIDIA --timeout 120 \
      --area images_api,images_kernel,images_samplers
    run images_hetgpu 150 $B/hg_suite --platform hetGPU --timeout 120 --area images_api,images_kernel,images_samplers ;;
  ptx)
    # the PTX back end (docs/ptx-backend.md): the suite through it, and bench-kernels with and
    # without it, each with an empty cache
    HETGPU_PTX=1 HETGPU_CACHE_DIR=/tmp/hg-cache-ptx run suite_ptx 150 $B/hg_suite --platform hetGPU --timeout 120
    for p in 0 1 0 1; do
      rm -rf /tmp/hg-cache-b; HETGPU_PTX=$p HETGPU_CACHE_DIR=/tmp/hg-cache-b OCL_ICD_VENDORS=/tmp/hg-vendors-all \
        HETGPU_BENCH_ITERS=50 run bench_ptx$p 200 $B/bench-kernels NVIDIA
      cat "$logs/bench_ptx$p.log" >> "$logs/bench_ptx_all.log"
    done ;;
  stop)
    # every corpus launch stopped at a random safe point and finished on another backend
    # (docs/safe-points.md), against NVIDIA's own build of the originals
    # HG_STOP_PAIRS: "from,to ..." (default: the four below)
    for pair in ${HG_STOP_PAIRS:-vendor:NVIDIA,riscv riscv,vendor:NVIDIA vendor:NVIDIA,vendor:Portable vendor:Portable,vendor:NVIDIA}; do
      from=${pair%%,*} to=${pair#*,} name=corpus_stop_$(echo "${pair}" | tr ':,' '_-')
      t0=$(date +%s)
      ls -d .gpubundle/kernels/*/ | sed 's,/$,,' | HG_CORPUS_PLATFORM=NVIDIA OCL_ICD_VENDORS=/tmp/hg-vendors-all \
        HETGPU_BACKEND=$from HETGPU_STOP_AFTER=1-40:$to \
        timeout 130 xargs -P 8 -I{} sh -c "$B/corpus_runner --via hetGPU --timeout 60 --exceptions .gpubundle/kernels/exceptions_nvidia.txt {} > $logs/${name}_\$(basename {}).log 2>&1"
      cat $logs/${name}_*.log > $logs/$name.log
      printf '%-32s %7ss  %s passed, %s failed\n' "$name" $(( $(date +%s) - t0 )) \
        "$(grep -c '^PASS' $logs/$name.log)" "$(grep -c '^FAIL' $logs/$name.log)" | tee -a "$logs/summary.txt"
      grep -h '^FAIL' $logs/$name.log | cut -c1-160 | tee -a "$logs/summary.txt"
    done ;;
  stopbench)
    # the stoppable forms on NVIDIA below the API, and bench-stop on every backend
    run vendor_stop_test 200 $B/vendor_stop_test
    run bench_stop 350 $B/bench-stop ;;
  robust)
    # robust buffer access (HETGPU_ROBUST=1, docs/robust-access.md): its test, with stoppable
    # and asynchronous launches, and bench-kernels plain then robust (bench/run_robust.sh's
    # table from the two logs)
    HETGPU_ROBUST=1 run robust_access 200 $B/robust_access
    HETGPU_ROBUST=1 HETGPU_SAFE_POINTS=0 run robust_access_async 200 $B/robust_access
    for rb in 0 1; do
      OCL_ICD_VENDORS=/tmp/hg-vendors-all HETGPU_SAFE_POINTS=0 HETGPU_ROBUST=$rb HETGPU_BENCH_ITERS=50 \
        run bench_robust_$rb 200 $B/bench-kernels NVIDIA
    done ;;
  esac
done
cat "$logs/summary.txt"
[ -n "${OUT:-}" ] && tar czf "$OUT/gpu-logs.tar.gz" -C "$logs" .
