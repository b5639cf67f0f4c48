#!/usr/bin/env bash
# ffmpeg's OpenCL filters through hetGPU, against the same filters on PoCL directly.
#
# A 320x240, 10-frame lavfi testsrc clip goes through unsharp_opencl and avgblur_opencl
# (hwupload, the filter, hwdownload) on the hetGPU device and on PoCL's device, both picked by
# their platform index in one ICD list; the raw yuv420p frames must agree within one 8-bit level
# on at most 1% of samples (compare_frames.py): the filters compute in float and write through
# write_imagef, whose float->unorm8 conversion the specification allows to be 0.6 off the exact
# value, so a different but conforming summation order can move a sample by one level. Frames are
# also compared, for information only, with ffmpeg's CPU filters unsharp and avgblur: those work
# in fixed point and treat edges differently (PoCL directly: unsharp up to 8 levels on 8% of
# samples, avgblur up to 24), too far apart to be a pass criterion.
# Exit 77 (ctest SKIP_RETURN_CODE) when ffmpeg, its OpenCL device type or the filters are missing.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
W=320 H=240 FRAMES=10
command -v ffmpeg >/dev/null || { echo "SKIP: no ffmpeg (tools/deps.sh installs it)"; exit 77; }
ffmpeg -hide_banner -init_hw_device list 2>/dev/null | grep -qx opencl || { echo "SKIP: ffmpeg built without OpenCL"; exit 77; }
filters=$(ffmpeg -hide_banner -filters 2>/dev/null)
for f in unsharp_opencl avgblur_opencl; do
  echo "$filters" | grep -q " $f " || { echo "SKIP: ffmpeg has no $f"; exit 77; }
done
command -v python3 >/dev/null || { echo "SKIP: no python3 for the comparison"; exit 77; }

TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
# One ICD list holding hetGPU (the build's vendors folder, OCL_ICD_VENDORS of ctest) and PoCL.
mkdir "$TMP/vendors"
for d in "${OCL_ICD_VENDORS:-}" /etc/OpenCL/vendors; do
  [ -d "$d" ] && for icd in "$d"/*.icd; do [ -e "$icd" ] && cp -n "$icd" "$TMP/vendors/"; done
done
export OCL_ICD_VENDORS="$TMP/vendors"
HG_PLATFORM=${FFMPEG_PLATFORM:-hetGPU} REF_PLATFORM=${FFMPEG_REF_PLATFORM:-Portable Computing Language}

# ffmpeg's own numbering ("P.D: platform / device" at debug level) picks the devices.
listing=$(ffmpeg -hide_banner -v debug -init_hw_device opencl=probe -f lavfi -i nullsrc=s=16x16 -frames:v 1 -f null - 2>&1)
index_of() { echo "$listing" | sed -n "s/.*\] \([0-9]*\.[0-9]*\): $1 \/ .*/\1/p" | head -1; }
HG=$(index_of "$HG_PLATFORM"); REF=$(index_of "$REF_PLATFORM")
echo "$listing" | grep -E '\] [0-9]+\.[0-9]+: '
[ -n "$REF" ] || { echo "FAIL: ffmpeg lists no '$REF_PLATFORM' OpenCL device"; exit 1; }
[ -n "$HG" ] || { echo "FAIL: ffmpeg lists no '$HG_PLATFORM' OpenCL device"; exit 1; }
echo "hetGPU device $HG, reference device $REF"

# run DEVICE FILTER OUT: the clip through one OpenCL filter on one device.
run() {
  ffmpeg -hide_banner -loglevel error -y -init_hw_device "opencl=ocl:$1" -filter_hw_device ocl \
    -f lavfi -i "testsrc=size=${W}x${H}:rate=10" -frames:v $FRAMES \
    -vf "format=yuv420p,hwupload,$2,hwdownload,format=yuv420p" -f rawvideo "$3"
}
cpu() {
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc=size=${W}x${H}:rate=10" -frames:v $FRAMES \
    -vf "format=yuv420p,$1" -f rawvideo "$2"
}
passed=0 failed=0
check() { # name opencl-filter cpu-filter
  local name=$1
  if ! run "$REF" "$2" "$TMP/$name.ref.yuv"; then echo "FAIL $name: the filter failed on PoCL directly"; failed=$((failed + 1)); return; fi
  if ! run "$HG" "$2" "$TMP/$name.hg.yuv"; then echo "FAIL $name: ffmpeg failed on the hetGPU device"; failed=$((failed + 1)); return; fi
  if python3 "$HERE/compare_frames.py" "$TMP/$name.hg.yuv" "$TMP/$name.ref.yuv" $W $H --max-diff 1 --max-frac 0.01; then
    echo "PASS $name"; passed=$((passed + 1))
  else
    echo "FAIL $name: hetGPU's frames differ from PoCL's"; failed=$((failed + 1))
  fi
  cpu "$3" "$TMP/$name.cpu.yuv" && { python3 "$HERE/compare_frames.py" "$TMP/$name.hg.yuv" "$TMP/$name.cpu.yuv" $W $H --max-diff 255 | sed 's/^/  (information, CPU filter) /'; }
}
check unsharp "unsharp_opencl=lx=5:ly=5:la=1.0:cx=3:cy=3:ca=0.5" "unsharp=lx=5:ly=5:la=1.0:cx=3:cy=3:ca=0.5"
check avgblur "avgblur_opencl=sizeX=3:sizeY=2" "avgblur=sizeX=3:sizeY=2"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
