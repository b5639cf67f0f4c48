#!/usr/bin/env bash
# Runs bench-migrate with hetGPU (from the build tree) and the system's vendor platforms visible
# to the ICD loader; hetGPU finds its vendor backends through HETGPU_VENDORS.
# Usage: bench/run_migrate.sh [BUILD_DIR] [bench-migrate options, e.g. --max-mib 512]
set -euo pipefail
build=${1:-build}; shift || true
vendors=$(mktemp -d)
trap 'rm -rf "$vendors"' EXIT
. "$(dirname "$0")/vendors.sh"
hg_bench_vendors "$build" "$vendors"
OCL_ICD_VENDORS="$vendors" HETGPU_VENDORS=/etc/OpenCL/vendors "$build/bench/bench-migrate" "$@"
