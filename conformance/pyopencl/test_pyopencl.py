#!/usr/bin/python3
"""pyopencl programs run through the hetGPU device, each result checked with numpy.

Covers pyopencl.array arithmetic, elementwise kernels, reductions, scans, a hand-written
kernel with local memory, a program binary round trip and a program from SPIR-V. Fresh random inputs every run (seed printed). Prints a closing
line "N passed, N failed". HG_PYOPENCL_REPEAT=N runs the whole list N times in one context (a
long-running application that conformance/apps/run_migrate_apps.sh moves between backends)."""
import os
import sys
import time
import traceback

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.clmath as clmath
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.reduction import ReductionKernel
from pyopencl.scan import GenericScanKernel, InclusiveScanKernel

WANT = os.environ.get("HETGPU_TEST_PLATFORM", "hetGPU")
SEED = int(os.environ.get("HETGPU_TEST_SEED", time.time_ns() % (1 << 32)))
print(f"seed {SEED} (HETGPU_TEST_SEED)")
rng = np.random.default_rng(SEED)

platform = next(p for p in cl.get_platforms() if WANT in p.name)
device = platform.get_devices()[0]
ctx = cl.Context([device])
queue = cl.CommandQueue(ctx)
print(f"platform: {platform.name}, device: {device.name}")

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def rand(n, dtype=np.float32, lo=-10, hi=10):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(lo, hi, n).astype(dtype)
    return rng.uniform(lo, hi, n).astype(dtype)


@test
def array_arithmetic():
    n = 100_003
    a, b = rand(n), rand(n, lo=0.5, hi=4)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    np.testing.assert_allclose((da + db).get(), a + b, rtol=1e-6)
    np.testing.assert_allclose((da * db - 3 * da).get(), a * b - 3 * a, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose((da / db).get(), a / b, rtol=1e-6)
    np.testing.assert_allclose(abs(da).get(), np.abs(a))
    np.testing.assert_allclose(clmath.sqrt(db).get(), np.sqrt(b), rtol=1e-6)
    np.testing.assert_allclose(clmath.exp(da / 4).get(), np.exp(a / 4), rtol=1e-5)
    np.testing.assert_allclose(clmath.sin(da).get(), np.sin(a), atol=1e-5)


@test
def array_integer_and_double():
    n = 65_537
    a, b = rand(n, np.int32, -1000, 1000), rand(n, np.int32, 1, 100)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    assert np.array_equal((da + db).get(), a + b)
    assert np.array_equal((da * db).get(), a * b)
    x = rand(n, np.float64)
    dx = cla.to_device(queue, x)
    np.testing.assert_allclose((dx * dx + 1.0).get(), x * x + 1.0, rtol=1e-14)


@test
def elementwise_kernel():
    n = 200_000
    lin = ElementwiseKernel(ctx, "float a, float *x, float b, float *y, float *z",
                            "z[i] = a*x[i] + b*y[i]", "lin_comb")
    x, y = rand(n), rand(n)
    dx, dy = cla.to_device(queue, x), cla.to_device(queue, y)
    dz = cla.empty_like(dx)
    dz.fill(np.float32(np.nan))
    lin(np.float32(2.5), dx, np.float32(-1.25), dy, dz)
    np.testing.assert_allclose(dz.get(), 2.5 * x - 1.25 * y, rtol=1e-5, atol=1e-5)


@test
def reductions():
    n = 1_000_003
    a = rand(n, lo=0, hi=1)
    da = cla.to_device(queue, a)
    np.testing.assert_allclose(cla.sum(da).get(), a.sum(dtype=np.float64), rtol=1e-4)
    assert cla.max(da).get() == a.max()
    assert cla.min(da).get() == a.min()
    b = rand(n, lo=0, hi=1)
    db = cla.to_device(queue, b)
    dot = ReductionKernel(ctx, np.float64, neutral="0", reduce_expr="a+b",
                          map_expr="(double)x[i]*(double)y[i]", arguments="__global float *x, __global float *y")
    np.testing.assert_allclose(dot(da, db).get(), np.dot(a.astype(np.float64), b.astype(np.float64)), rtol=1e-9)
    ints = rand(n, np.int32, -5, 6)
    assert cla.sum(cla.to_device(queue, ints)).get() == ints.sum()


@test
def scans():
    n = 300_007
    a = rand(n, np.int32, 0, 10)
    da = cla.to_device(queue, a)
    InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")(da)
    assert np.array_equal(da.get(), np.cumsum(a, dtype=np.int32))
    # exclusive scan with an output expression: stream compaction of the positive entries
    v = rand(n, np.int32, -50, 50)
    dv = cla.to_device(queue, v)
    out = cla.empty(queue, n, np.int32)
    count = cla.empty(queue, 1, np.int32)
    knl = GenericScanKernel(
        ctx, np.int32, arguments="__global int *v, __global int *out, __global int *count",
        input_expr="(v[i] > 0) ? 1 : 0", scan_expr="a+b", neutral="0",
        output_statement="if (prev_item != item) out[item - 1] = v[i]; if (i + 1 == N) count[0] = item;")
    knl(dv, out, count)
    pos = v[v > 0]
    assert count.get()[0] == len(pos)
    assert np.array_equal(out.get()[:len(pos)], pos)


@test
def local_memory_kernel():
    src = """
    __kernel void block_sum(__global const float *in, __global float *out, __local float *tmp) {
      size_t l = get_local_id(0), n = get_local_size(0);
      tmp[l] = in[get_global_id(0)];
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = tmp[0];
    }"""
    prg = cl.Program(ctx, src).build()
    groups, local = 512, 128
    a = rand(groups * local, lo=0, hi=1)
    da = cla.to_device(queue, a)
    out = cla.empty(queue, groups, np.float32)
    out.fill(np.float32(np.nan))
    prg.block_sum(queue, (groups * local,), (local,), da.data, out.data, cl.LocalMemory(local * 4))
    np.testing.assert_allclose(out.get(), a.reshape(groups, local).sum(axis=1), rtol=1e-5)


@test
def program_binary_roundtrip():
    src = "__kernel void twice(__global int *x) { x[get_global_id(0)] *= 2; }"
    prg = cl.Program(ctx, src).build()
    binary = prg.get_info(cl.program_info.BINARIES)[0]
    prg2 = cl.Program(ctx, [device], [binary]).build()
    a = rand(4096, np.int32, -1000, 1000)
    da = cla.to_device(queue, a)
    prg2.twice(queue, a.shape, None, da.data)
    assert np.array_equal(da.get(), a * 2)


@test
def program_from_il():
    """Program(ctx, il): SPIR-V made by clang and llvm-spirv, as an application would ship it."""
    import subprocess
    import tempfile
    src = """
    __kernel void scaled_block_max(__global const int *in, __global int *out, int k, __local int *tmp) {
      size_t l = get_local_id(0), n = get_local_size(0);
      tmp[l] = in[get_global_id(0)] * k;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (size_t s = n / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] = max(tmp[l], tmp[l + s]);
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      if (l == 0) out[get_group_id(0)] = tmp[0];
    }"""
    clang = os.environ.get("HETGPU_CLANG", "/usr/bin/clang-15")
    translator = os.environ.get("HETGPU_LLVM_SPIRV", "/usr/bin/llvm-spirv-15")
    with tempfile.TemporaryDirectory() as d:
        with open(f"{d}/k.cl", "w") as f:
            f.write(src)
        subprocess.run([clang, "-cl-std=CL1.2", "-target", "spir64", "-O2", "-emit-llvm", "-c", "-Xclang",
                        "-finclude-default-header", f"{d}/k.cl", "-o", f"{d}/k.bc"], check=True)
        subprocess.run([translator, f"{d}/k.bc", "-o", f"{d}/k.spv"], check=True)
        with open(f"{d}/k.spv", "rb") as f:
            il = f.read()
    prg = cl.Program(ctx, il).build()
    # (pyopencl 2022.3 decodes CL_PROGRAM_IL as UTF-8 text, so it is not read back here: il_api does)
    groups, local = 256, 64
    a = rand(groups * local, np.int32, -100000, 100000)
    k = int(rng.integers(-9, 10))
    da = cla.to_device(queue, a)
    out = cla.empty(queue, groups, np.int32)
    out.fill(np.int32(-1))
    prg.scaled_block_max(queue, (groups * local,), (local,), da.data, out.data, np.int32(k), cl.LocalMemory(local * 4))
    assert np.array_equal(out.get(), (a * k).reshape(groups, local).max(axis=1))


passed = failed = 0
for fn in TESTS * int(os.environ.get("HG_PYOPENCL_REPEAT", "1")):
    try:
        fn()
        print(f"ok     {fn.__name__}")
        passed += 1
    except Exception:
        print(f"FAIL   {fn.__name__}")
        traceback.print_exc(file=sys.stdout)
        failed += 1
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
