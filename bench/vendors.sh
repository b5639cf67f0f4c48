# Sourced by the bench scripts: hg_bench_vendors BUILD_DIR DIR fills DIR with the system's vendor
# .icd files and the build tree's hetgpu.icd, the latter last, so that an installed hetGPU never
# replaces the one being measured.
hg_bench_vendors() {
  local build=$1 dir=$2 f
  for f in /etc/OpenCL/vendors/*.icd; do [ "$(basename "$f")" = hetgpu.icd ] || cp "$f" "$dir/"; done
  cp "$build/vendors/hetgpu.icd" "$dir/"
}
