#!/usr/bin/env bash
# The main job: installs the dependencies, builds hetGPU, installs and registers it, lists it
# with clinfo and runs a real OpenCL program through it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO=sudo
$SUDO cmake --install build
$SUDO ldconfig
clinfo -l
clinfo | grep -E "Platform Name|Device Name|Device Version" | grep -i -A2 hetgpu || true
./build/tools/hetgpu-demo
