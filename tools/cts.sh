#!/usr/bin/env bash
# The Khronos OpenCL conformance suite against hetGPU and PoCL, side by side.
#
# Builds the chosen areas of the CTS from a local checkout of its public source (given by path;
# nothing of it enters this repository), runs each area's test binary once through hetGPU (the
# build tree's driver, alone on the ICD loader) and once on PoCL directly, and prints one table:
# per area and platform the subtests passed, failed and skipped (a binary that died says so),
# then the names of the subtests that failed on either. Logs: $CTS_BUILD/logs/<area>.<platform>.log.
#
# Needs the Debian packages the CTS builds with: cmake, g++, ocl-icd-opencl-dev, spirv-headers.
# Usage: tools/cts.sh CTS_DIR [AREA...]
#   AREA: a directory of the CTS's test_conformance/ (api basic compiler events ...); default:
#   the areas docs/conformance.md records. math_brute_force and conversions run wimpy (-w).
# Environment: HETGPU_BUILD (hetGPU's build directory, default build), CTS_BUILD (default
#   build-cts), CTS_TIMEOUT (seconds per area and platform, default 3600), CTS_PLATFORMS
#   (default "hetGPU PoCL"; "RISC-V" is hetGPU on its RISC-V backend; NVIDIA on the GPU
#   machine: an .icd path as NAME=ICD, e.g. "hetGPU NVIDIA=/etc/OpenCL/vendors/nvidia.icd"),
#   CTS_JOBS (default 1: an area's tests split over this many processes of its binary at once;
#   conversions then runs one process per vector size, six; the long areas need it to fit an
#   hour), CTS_CL_HEADERS (the OpenCL headers the CTS
#   compiles against, default /usr/include; a recent CTS needs a checkout of the Khronos
#   OpenCL-Headers, newer than Debian 12's), CTS_SPIRV_HEADERS (the directory holding
#   include/spirv, default /usr; likewise a checkout of the Khronos SPIRV-Headers for a recent CTS).
set -uo pipefail
cts=${1:?usage: tools/cts.sh CTS_DIR [AREA...]}; shift
cts=$(realpath "$cts")
root=$(cd "$(dirname "$0")/.." && pwd)
hg_build=$(realpath "${HETGPU_BUILD:-$root/build}")
out=$(realpath -m "${CTS_BUILD:-$root/build-cts}")
timeout_s=${CTS_TIMEOUT:-3600}
headers=$(realpath "${CTS_CL_HEADERS:-/usr/include}")
spirv=$(realpath "${CTS_SPIRV_HEADERS:-/usr}")
areas=("$@")
[ ${#areas[@]} -gt 0 ] || areas=(api basic buffers compiler events profiling atomics c11_atomics printf allocations
                                 commonfns select geometrics relationals integer_ops math_brute_force conversions vectors)
[ -f "$cts/test_conformance/opencl_conformance_tests_full.csv" ] || { echo "$cts is not an OpenCL-CTS checkout"; exit 2; }
[ -f "$hg_build/vendors/hetgpu.icd" ] || { echo "no hetGPU build in $hg_build (build it first)"; exit 2; }

# the binary (and arguments) of an area, from the CTS's own list
binary_of() {
  local line
  line=$(grep -v '^#' "$cts/test_conformance/opencl_conformance_tests_full.csv" | grep -m1 ",$1/" | cut -d, -f2)
  [ -n "$line" ] || line="$1/test_$1"
  echo "$line"
}

mkdir -p "$out/logs"
[ -d "$spirv/include/spirv" ] || { echo "the CTS needs the SPIR-V headers: apt-get install spirv-headers"; exit 2; }
cmake -S "$cts" -B "$out" -DCMAKE_BUILD_TYPE=Release -DCL_INCLUDE_DIR="$headers" -DSPIRV_INCLUDE_DIR="$spirv" \
  -DCL_LIB_DIR=/usr/lib/x86_64-linux-gnu -DOPENCL_LIBRARIES=OpenCL > "$out/logs/configure.log" 2>&1 ||
  { echo "configuring the CTS failed: $out/logs/configure.log"; exit 1; }
targets=()
for a in "${areas[@]}"; do
  b=$(binary_of "$a"); b=${b%% *}; targets+=("$(basename "$b")")
done
cmake --build "$out" -j"$(nproc)" --target "${targets[@]}" > "$out/logs/build.log" 2>&1 ||
  { echo "building the CTS failed: $out/logs/build.log"; exit 1; }

platforms=(${CTS_PLATFORMS:-hetGPU PoCL})
vendors_of() {
  case $1 in
  hetGPU | RISC-V) echo "$hg_build/vendors" ;;
  PoCL) echo /etc/OpenCL/vendors/pocl.icd ;;
  *=*) echo "${1#*=}" ;;
  esac
}

# Runs an area's binary ($1) with arguments ($2) for platform $3 into log $4, in CTS_JOBS
# processes when asked: the test names its --help lists, dealt round-robin, or for conversions
# one vector size each. Returns the largest exit status.
run_area() {
  local bin=$1 args=$2 p=$3 log=$4 jobs=${CTS_JOBS:-1} backend=""
  [ "${p%%=*}" = RISC-V ] && backend=riscv
  local chunks=("")
  if [ "$jobs" -gt 1 ]; then
    if [ "$(basename "$bin")" = test_conversions ]; then
      chunks=("-1" "-2" "-3" "-4" "-8" "-16")
    else
      local names
      names=$(cd "$(dirname "$bin")" && "./$(basename "$bin")" --help 2>&1 | sed -n '/^Test names:/,$p' | tail -n +2 | awk 'NF {print $1}')
      if [ -n "$names" ]; then
        chunks=()
        for ((i = 0; i < jobs; i++)); do chunks+=("$(echo "$names" | awk -v n="$jobs" -v i="$i" 'NR % n == i' | tr '\n' ' ')"); done
      fi
    fi
  fi
  local i=0 pids=() rc=0
  for c in "${chunks[@]}"; do
    [ -n "$c" ] || [ ${#chunks[@]} -eq 1 ] || continue
    (cd "$(dirname "$bin")" && OCL_ICD_VENDORS=$(vendors_of "$p") HETGPU_BACKEND=${backend:-${HETGPU_BACKEND:-}} \
      timeout "$timeout_s" "./$(basename "$bin")" $args $c > "$log.part$i" 2>&1) &
    pids+=($!); i=$((i + 1))
  done
  for pid in "${pids[@]}"; do wait "$pid"; local r=$?; [ $r -gt $rc ] && rc=$r; done
  cat "$log".part* > "$log" 2>/dev/null; rm -f "$log".part*
  return $rc
}

summary=$(mktemp)
printf '%-20s' area > "$summary"
for p in "${platforms[@]}"; do printf ' | %-26s' "${p%%=*} pass/fail/skip" >> "$summary"; done
echo >> "$summary"
failures=()
for a in "${areas[@]}"; do
  spec=$(binary_of "$a"); bin=${spec%% *}; args=""
  [ "$spec" != "$bin" ] && args=${spec#* }
  case $a in math_brute_force | conversions) args="$args -w" ;; esac
  dir=$(find "$out" -type f -name "$(basename "$bin")" -perm -u+x | head -1)
  printf '%-20s' "$a" >> "$summary"
  for p in "${platforms[@]}"; do
    name=${p%%=*} log="$out/logs/$a.${name}.log"
    if [ -z "$dir" ]; then printf ' | %-26s' "not built" >> "$summary"; continue; fi
    run_area "$dir" "$args" "$p" "$log"
    rc=$?
    pass=$(grep -c ' passed$' "$log"); fail=$(grep -c ' FAILED$' "$log")
    skip=$(grep -cE ' test not supported$| test currently not implemented$' "$log")
    note=""
    [ $rc -ge 124 ] && note=" (rc $rc)"
    printf ' | %-26s' "$pass/$fail/$skip$note" >> "$summary"
    for t in $(grep ' FAILED$' "$log" | awk '{print $1}'); do failures+=("$a/$t on $name"); done
  done
  echo >> "$summary"
done
cat "$summary"
rm -f "$summary"
if [ ${#failures[@]} -gt 0 ]; then
  echo; echo "failed subtests:"; printf '  %s\n' "${failures[@]}"
fi
