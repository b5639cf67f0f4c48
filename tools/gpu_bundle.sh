#!/usr/bin/env bash
# Packs what a run on the GPU machine needs (it has no Debian LLVM and cannot install anything):
# the built driver, the test and benchmark executables, and the Debian runtime libraries the
# driver's front end uses, into .gpubundle/ (git-ignored). tools/gpu_run.sh runs it there.
# Usage: tools/gpu_bundle.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
out=.gpubundle
rm -rf "$out" && mkdir -p "$out/bin" "$out/debs"
cp -a "$build"/icd/libhetgpu.so* "$out/bin/"
# beside the library: the child that builds stoppable forms (devices/vendor/vendor_build_child.h)
# and the LLVM part (icd/llvm_part/llvm_part.h; git-ignored as *.so: a device run must carry it by name)
mkdir -p "$out/bin/hetgpu" && cp "$build/icd/hetgpu/hetgpu-vendor-build" "$build/icd/hetgpu/hetgpu-llvm.so" "$out/bin/hetgpu/"
find "$build/conformance" "$build/tools" "$build/bench" -maxdepth 3 -type f -executable \
  \( -name 'api_*' -o -name 'buffers_*' -o -name 'event_*' -o -name 'queue_*' -o -name 'hetgpu-demo' \
     -o -name 'bench-kernels' -o -name 'bench-footprint' -o -name 'bench-clblast' -o -name 'bench-round' -o -name 'bench-vendor-submit' -o -name 'bench-riscv-sim' -o -name 'vendor_backend_test' -o -name 'corpus_runner' -o -name 'hg_suite' \
     -o -name 'hetgpu-cc' -o -name 'hetgpu-ctl' -o -name 'migrate_*' -o -name 'bench-migrate' -o -name 'bench-stop' -o -name 'vendor_stop_test' -o -name 'robust_access' -o -name 'opencl_c_*' -o -name 'frontend_warm' \) -exec cp {} "$out/bin/" \;
# *.so is git-ignored, and the device tool carries only what git does not ignore: a suffix it
# does (gpu_run.sh links the name the test looks for)
find "$build/conformance" -name 'libhg_vendor_under_test.so' -exec cp {} "$out/bin/libhg_vendor_under_test.so.0" \;
cp conformance/pyopencl/test_pyopencl.py conformance/apps/run_migrate_apps.sh "$out/bin/"
mkdir -p "$out/kernels" && cp -r conformance/kernels/* "$out/kernels/"
# .devlibs/debs (git-ignored) keeps a downloaded set for machines without a package mirror
if ls .devlibs/debs/*.deb >/dev/null 2>&1; then cp .devlibs/debs/*.deb "$out/debs/"
else (cd "$out/debs" && apt-get download libllvm15 libclang-cpp15 clang-15 libclang-common-15-dev libz3-4 llvm-spirv-15 libllvmspirvlib15 spirv-tools libclblast1 >/dev/null); fi
du -sh "$out"
