#!/usr/bin/env bash
# The whole test suite: installs the dependencies, builds hetGPU in build/ and runs every test
# with ctest (the tests reach the driver in the build tree, nothing needs installing).
# HETGPU_SANITIZE=1 builds and tests under AddressSanitizer + UndefinedBehaviorSanitizer instead;
# HETGPU_TSAN=1 runs the multithreaded queue and event tests under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
dir=build; opts=(); ctest_opts=(); targets=()
if [ "${HETGPU_TSAN:-0}" = 1 ]; then
  # ThreadSanitizer: the tests where several threads enqueue on shared and separate queues, a
  # context migrates under them (also stopping running kernels at safe points), a move copies
  # through the pool of threads of the GPU path, and the control socket's
  # listener serves an application, a timer thread stops kernels past HETGPU_KERNEL_TIMEOUT, and
  # callbacks make blocking calls on the threads that drive their queues (the safe-point tests:
  # the plain one and the one with forms built in the background; the child-process variant
  # adds no thread of its own)
  dir=build-tsan; opts=(-DHETGPU_TSAN=ON); ctest_opts=(-R "^(event_|queue_|migrate_threads|migrate_safepoint($|_forms_background)|migrate_transfer_paths|control_socket|kernel_timeout|callback_blocking)")
  targets=(--target hetgpu event_api event_deps event_threads queue_api queue_order queue_pipeline migrate_threads
           migrate_safepoint migrate_transfer_paths test_control_socket control_workload hetgpu-ctl kernel_timeout
           callback_blocking)
elif [ "${HETGPU_SANITIZE:-0}" = 1 ]; then
  # the sanitizer run leaves out the long runs: kernel corpus, conformance suite, real
  # applications and pyopencl (they pass under the sanitizers too, given hours)
  dir=build-asan; opts=(-DHETGPU_SANITIZE=ON); ctest_opts=(-E "^(corpus|suite|app_)|pyopencl")
  # GCC 12's sanitizer runtime (fixed after GCC 13 / LLVM 16) can take a dynamic TLS block for a
  # pre-2.25 glibc one, by where malloc happened to put it, and LeakSanitizer's exit check then
  # crashes ("Tracer caught signal 11", seen once in queue_pipeline); leave __tls_get_addr alone
  export ASAN_OPTIONS="intercept_tls_get_addr=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${opts[@]}"
cmake --build "$dir" -j"$(nproc)" "${targets[@]}"
if [ "$dir" = build ]; then
# clinfo must list hetGPU with no error lines (an uninstrumented clinfo cannot load a sanitizer build)
OCL_ICD_VENDORS="$PWD/$dir/vendors" clinfo > "$dir/clinfo.txt" 2>&1 || { cat "$dir/clinfo.txt"; exit 1; }
grep -q "Platform Name *hetGPU" "$dir/clinfo.txt" || { echo "clinfo does not list hetGPU"; cat "$dir/clinfo.txt"; exit 1; }
if grep -nE "<error|error:|error -|CL_[A-Z_]*(INVALID|NOT_FOUND|FAILURE)|[Ff]ailed" "$dir/clinfo.txt"; then echo "clinfo printed error lines"; exit 1; fi
echo "clinfo: hetGPU platform and device listed, no error lines"
fi
cd "$dir"
ctest --output-on-failure -j"$(nproc)" --timeout 900 "${ctest_opts[@]}"
