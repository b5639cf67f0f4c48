/* The copy paths of a migration keep every byte of large buffers: besides the one memcpy
 * between two host mappings (PoCL <-> RISC-V), the paths a GPU takes run here with PoCL
 * standing in for the GPU (HETGPU_FAULT_INJECT=map_source / map_target make that side's host
 * mapping fail): one transfer to or from the RISC-V mapping PoCL registered in the migration's
 * prepare phase (host_register), and, with the fault point pin failing the registration, the
 * pipelined path (threads copying chunks while the device's DMA moves others).
 * Buffers of sizes that are not a multiple of the chunk (16 MiB) nor of a page move back and
 * forth, a kernel changing every word between moves (so each move copies fresh bytes), and
 * every word is compared with the host reference after every move. */
#include <stdlib.h>
#include <string.h>

#include "migrate_util.h"

MG_FAULT_INJECTION_ARMED

#define NUM_BUFS 3
static const size_t words[NUM_BUFS] = {(4u << 20) / 4 + 1027, (37u << 20) / 4 + 5, 333};

static const char *inc_src = "__kernel void inc(__global uint *p, uint n, uint add) {\n"
                             "  for (size_t i = get_global_id(0); i < n; i += get_global_size(0)) p[i] += add; }\n";

static cl_int increment(cl_command_queue q, cl_kernel k, cl_mem b, cl_uint n, cl_uint add) {
  cl_int err = clSetKernelArg(k, 0, sizeof b, &b);
  err |= clSetKernelArg(k, 1, sizeof n, &n);
  err |= clSetKernelArg(k, 2, sizeof add, &add);
  size_t global = 64 * 1024, local = 64;
  return err ? err : clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
}

HG_TEST(large_buffers_keep_their_bytes_on_every_path) {
  MG_REQUIRE();
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_program prog = hg_test_build(ctx, inc_src, NULL);
  CHECK(prog);
  cl_int err;
  cl_kernel inc = clCreateKernel(prog, "inc", &err);
  CHECK_CL(err);
  cl_mem buf[NUM_BUFS];
  uint32_t *ref[NUM_BUFS], *got = malloc(words[1] * 4);
  for (int b = 0; b < NUM_BUFS; b++) {
    ref[b] = mg_random_u32(words[b]);
    buf[b] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, words[b] * 4, ref[b], &err);
    CHECK_CL(err);
  }
  /* even rounds move to RISC-V, odd ones back to PoCL: PoCL's side unmapped in rounds 2-7 takes
   * the registered mapping (2, 3), the pipeline (4, 5) or the staged copy (6, 7); RISC-V's
   * unmapped in 8, 9 a direct copy (RISC-V registers nothing) */
  static const char *const faults[] = {NULL,
                                       NULL,
                                       "map_source",
                                       "map_target",
                                       "map_source,pin",
                                       "map_target,pin",
                                       "map_source,map_target",
                                       "map_source,map_target",
                                       "map_target",
                                       "map_source"};
  for (int round = 0; round < (int)(sizeof faults / sizeof *faults); round++) {
    const char *fault = faults[round];
    if (fault)
      setenv("HETGPU_FAULT_INJECT", fault, 1);
    cl_backend_id_hetgpu to = round % 2 ? mg_vendor : mg_riscv;
    err = mg.migrate(ctx, to, 0, 0, NULL);
    unsetenv("HETGPU_FAULT_INJECT");
    CHECK_CL(err);
    CHECK(mg_backend_of(ctx) == to);
    for (int b = 0; b < NUM_BUFS; b++) {
      memset(got, 0xa5, words[b] * 4);
      CHECK_CL(clEnqueueReadBuffer(q, buf[b], CL_TRUE, 0, words[b] * 4, got, 0, NULL, NULL));
      CHECK_U32(got, ref[b], words[b], "buffer %d after move %d (fault points: %s)", b, round, fault ? fault : "none");
      cl_uint add = (cl_uint)(round * 7 + b + 1);
      CHECK_CL(increment(q, inc, buf[b], (cl_uint)words[b], add));
      for (size_t i = 0; i < words[b]; i++)
        ref[b][i] += add;
    }
    CHECK_CL(clFinish(q));
  }
  for (int b = 0; b < NUM_BUFS; b++) {
    clReleaseMemObject(buf[b]);
    free(ref[b]);
  }
  free(got);
  clReleaseKernel(inc);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
}
