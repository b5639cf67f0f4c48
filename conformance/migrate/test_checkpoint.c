/* Checkpoint and restore: a context checkpointed on PoCL is restored on RISC-V in the same
 * process (objects by order and by label, kernels keep their arguments, the computation goes
 * on right); missing, truncated and corrupted files give CL_INVALID_SNAPSHOT_HETGPU; and two
 * processes: A runs an integer heat-equation stencil on PoCL (HETGPU_BACKEND=vendor:Portable),
 * checkpoints half way and is killed with SIGKILL while it goes on; this process restores the
 * file on RISC-V, runs the remaining steps and must equal the uninterrupted host computation. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "migrate_util.h"

#define N 8192
#define LS 64

static cl_int set_stencil(cl_kernel k, cl_mem in, cl_mem out, cl_uint n, size_t ls, uint32_t add) {
  cl_int err = clSetKernelArg(k, 0, sizeof in, &in);
  err |= clSetKernelArg(k, 1, sizeof out, &out);
  err |= clSetKernelArg(k, 2, (ls + 2) * 4, NULL);
  err |= clSetKernelArg(k, 3, sizeof n, &n);
  return err | clSetKernelArg(k, 4, sizeof add, &add);
}

static cl_int set_mix(cl_kernel k, cl_mem b, uint32_t add) {
  cl_int err = clSetKernelArg(k, 0, sizeof b, &b);
  err |= clSetKernelArg(k, 1, LS * 4, NULL);
  return err | clSetKernelArg(k, 2, sizeof add, &add);
}

static bool read_file(const char *path, unsigned char **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  fseek(f, 0, SEEK_END);
  *size = (size_t)ftell(f);
  fseek(f, 0, SEEK_SET);
  *data = malloc(*size ? *size : 1);
  bool ok = fread(*data, 1, *size, f) == *size;
  fclose(f);
  return ok;
}

static bool write_file(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* A directory for checkpoint files under the build directory (the test's working directory). */
static bool temp_dir(char *out, size_t size) {
  snprintf(out, size, "%s/mig-ckpt-XXXXXX", getenv("PWD") ? getenv("PWD") : ".");
  return mkdtemp(out) != NULL;
}

static void remove_dir(const char *dir) {
  char cmd[1200];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    printf("    could not remove %s\n", dir);
}

HG_TEST(checkpoint_on_vendor_restore_on_riscv) {
  if (getenv("HG_MIG_STEP"))
    return;
  MG_REQUIRE();
  char dir[1024], path[1100];
  CHECK(temp_dir(dir, sizeof dir));
  snprintf(path, sizeof path, "%s/same_process.hgsnap", dir);
  cl_context ctx = hg_test_context();
  CHECK(mg_backend_of(ctx) == mg_vendor);
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  uint32_t *ref_a = mg_random_u32(N), *ref_b = malloc(N * 4), *ref_c = mg_random_u32(N);
  cl_mem a = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, ref_a, &err);
  CHECK_CL(err);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_READ_WRITE, N * 4, NULL, &err);
  CHECK_CL(err);
  cl_mem c = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR, N * 4, ref_c, &err);
  CHECK_CL(err);
  cl_uint bits = 0;
  CHECK_CL(clGetDeviceInfo(hg_test_device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, NULL));
  size_t sub_off = bits / 32 * 3, sub_len = N / 2;
  cl_buffer_region region = {sub_off * 4, sub_len * 4};
  cl_mem sub = clCreateSubBuffer(c, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &err);
  CHECK_CL(err);
  cl_program prog = hg_test_build(ctx, mg_kernels_src, "-DUNUSED_OPTION=1");
  CHECK(prog);
  cl_kernel step = clCreateKernel(prog, "stencil", &err);
  CHECK_CL(err);
  cl_kernel mix = clCreateKernel(prog, "wgmix", &err);
  CHECK_CL(err);
  void *objs[] = {q, a, b, c, sub, prog, step, mix};
  const char *labels[] = {"queue", "a", "b", "c", "c.sub", "program", "step", "mix"};
  for (int i = 0; i < 8; i++)
    CHECK_CL(mg.set_label(objs[i], labels[i]));
  /* a few steps a -> b -> a, and mixes of the sub-buffer */
  for (int s = 0; s < 6; s++) {
    cl_mem in = s % 2 ? b : a, out = s % 2 ? a : b;
    CHECK_CL(set_stencil(step, in, out, N, LS, (uint32_t)s));
    size_t global = N, local = LS;
    CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, &global, &local, 0, NULL, NULL));
    mg_ref_stencil(s % 2 ? ref_b : ref_a, s % 2 ? ref_a : ref_b, N, (uint32_t)s);
    uint32_t add = hg_test_rand();
    CHECK_CL(set_mix(mix, sub, add));
    global = sub_len;
    CHECK_CL(clEnqueueNDRangeKernel(q, mix, 1, NULL, &global, &local, 0, NULL, NULL));
    mg_ref_mix(ref_c + sub_off, sub_len, LS, add);
  }
  /* the arguments of the next step are set but not used before the checkpoint */
  uint32_t next_add = hg_test_rand(), mix_add = hg_test_rand();
  CHECK_CL(set_stencil(step, a, b, N, LS, next_add));
  CHECK_CL(set_mix(mix, sub, mix_add));
  CHECK_CL(mg.checkpoint(ctx, path, 0, 0)); /* waits for the queued steps itself */

  cl_context r = mg.restore(hg_test_platform, path, mg_riscv, &err);
  CHECK_CL(err);
  CHECK(r && mg_backend_of(r) == mg_riscv && mg_migrations(r) == 0);
  /* objects by order: the same kinds and counts, in creation order */
  static const cl_object_type_hetgpu types[] = {CL_OBJECT_COMMAND_QUEUE_HETGPU, CL_OBJECT_MEM_HETGPU,
                                                CL_OBJECT_PROGRAM_HETGPU, CL_OBJECT_KERNEL_HETGPU};
  static const int first[] = {0, 1, 5, 6}, count[] = {1, 4, 1, 2};
  void *got_objs[8];
  for (int t = 0; t < 4; t++) {
    cl_uint n = 0;
    CHECK_CL(mg.get_objects(r, types[t], 8, got_objs, &n));
    CHECK_MSG(n == (cl_uint)count[t], "restored type %#x: %u objects, want %d", types[t], n, count[t]);
    for (int i = 0; i < count[t]; i++) {
      void *by_label = NULL;
      cl_object_type_hetgpu lt = 0;
      CHECK_CL(mg.get_by_label(r, labels[first[t] + i], &lt, &by_label));
      CHECK_MSG(by_label == got_objs[i] && lt == types[t], "label %s is not object %d of its type", labels[first[t] + i],
                i);
    }
  }
  cl_command_queue rq;
  cl_mem ra, rb, rc, rsub;
  cl_kernel rstep, rmix;
  CHECK_CL(mg.get_by_label(r, "queue", NULL, (void **)&rq));
  CHECK_CL(mg.get_by_label(r, "a", NULL, (void **)&ra));
  CHECK_CL(mg.get_by_label(r, "b", NULL, (void **)&rb));
  CHECK_CL(mg.get_by_label(r, "c", NULL, (void **)&rc));
  CHECK_CL(mg.get_by_label(r, "c.sub", NULL, (void **)&rsub));
  CHECK_CL(mg.get_by_label(r, "step", NULL, (void **)&rstep));
  CHECK_CL(mg.get_by_label(r, "mix", NULL, (void **)&rmix));
  /* buffer properties: sizes, the sub-buffer's parent and origin, host-pointer flags dropped */
  size_t size = 0, origin = 1;
  cl_mem parent = NULL;
  cl_mem_flags flags = 0;
  CHECK_CL(clGetMemObjectInfo(rc, CL_MEM_SIZE, sizeof size, &size, NULL));
  CHECK(size == N * 4);
  CHECK_CL(clGetMemObjectInfo(rsub, CL_MEM_SIZE, sizeof size, &size, NULL));
  CHECK(size == sub_len * 4);
  CHECK_CL(clGetMemObjectInfo(rsub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof parent, &parent, NULL));
  CHECK_CL(clGetMemObjectInfo(rsub, CL_MEM_OFFSET, sizeof origin, &origin, NULL));
  CHECK(parent == rc && origin == sub_off * 4);
  CHECK_CL(clGetMemObjectInfo(ra, CL_MEM_FLAGS, sizeof flags, &flags, NULL));
  CHECK(!(flags & (CL_MEM_COPY_HOST_PTR | CL_MEM_USE_HOST_PTR)));
  cl_context kctx = NULL;
  CHECK_CL(clGetKernelInfo(rstep, CL_KERNEL_CONTEXT, sizeof kctx, &kctx, NULL));
  CHECK(kctx == r);
  /* contents at the checkpoint */
  uint32_t *got = malloc(N * 4);
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(rq, ra, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_a, N, "restored buffer a");
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(rq, rc, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_c, N, "restored buffer c");
  /* the kernels run with their restored arguments, no clSetKernelArg */
  size_t global = N, local = LS;
  CHECK_CL(clEnqueueNDRangeKernel(rq, rstep, 1, NULL, &global, &local, 0, NULL, NULL));
  mg_ref_stencil(ref_a, ref_b, N, next_add);
  global = sub_len;
  CHECK_CL(clEnqueueNDRangeKernel(rq, rmix, 1, NULL, &global, &local, 0, NULL, NULL));
  mg_ref_mix(ref_c + sub_off, sub_len, LS, mix_add);
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(rq, rb, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_b, N, "step with restored arguments");
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(rq, rc, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_c, N, "mix of the restored sub-buffer with restored arguments");
  /* the original context is untouched by the checkpoint and goes on too */
  CHECK(mg_backend_of(ctx) == mg_vendor);
  CHECK_CL(clEnqueueNDRangeKernel(q, step, 1, NULL, (size_t[]){N}, (size_t[]){LS}, 0, NULL, NULL));
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, b, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_b, N, "the original context after the checkpoint");
  /* and the restored context migrates like any other */
  CHECK_CL(mg.migrate(r, mg_vendor, 0, 0, NULL));
  memset(got, 0xA5, N * 4);
  CHECK_CL(clEnqueueReadBuffer(rq, rb, CL_TRUE, 0, N * 4, got, 0, NULL, NULL));
  CHECK_U32(got, ref_b, N, "restored context after a migration");

  mg_release_restored(r);
  clReleaseKernel(step), clReleaseKernel(mix), clReleaseProgram(prog);
  clReleaseMemObject(sub), clReleaseMemObject(a), clReleaseMemObject(b), clReleaseMemObject(c);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  free(got), free(ref_a), free(ref_b), free(ref_c);
  remove_dir(dir);
}

static void expect_bad_snapshot(const char *path, const char *what) {
  cl_int err = 0;
  cl_context c = mg.restore(hg_test_platform, path, mg_riscv, &err);
  CHECK_MSG(c == NULL && err == CL_INVALID_SNAPSHOT_HETGPU, "%s: restore returned %p, %d", what, (void *)c, err);
}

HG_TEST(bad_snapshot_files) {
  if (getenv("HG_MIG_STEP"))
    return;
  MG_REQUIRE();
  char dir[1024], good[1100], bad[1100];
  CHECK(temp_dir(dir, sizeof dir));
  snprintf(good, sizeof good, "%s/good.hgsnap", dir);
  snprintf(bad, sizeof bad, "%s/bad.hgsnap", dir);
  cl_context ctx = hg_test_context();
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  uint32_t *data = mg_random_u32(N);
  cl_mem b = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, N * 4, data, &err);
  CHECK_CL(err);
  cl_program p = hg_test_build(ctx, mg_kernels_src, NULL);
  CHECK(p);
  cl_kernel k = clCreateKernel(p, "wgmix", &err);
  CHECK_CL(set_mix(k, b, 7));
  CHECK_CL(mg.checkpoint(ctx, good, 0, 0));
  unsigned char *file;
  size_t size;
  CHECK(read_file(good, &file, &size));
  CHECK(size > N * 4);
  /* the good file restores */
  cl_context r = mg.restore(hg_test_platform, good, mg_riscv, &err);
  CHECK_CL(err);
  mg_release_restored(r);

  char what[128];
  snprintf(bad, sizeof bad, "%s/missing.hgsnap", dir);
  expect_bad_snapshot(bad, "a missing file");
  expect_bad_snapshot(dir, "a directory");
  snprintf(bad, sizeof bad, "%s/bad.hgsnap", dir);
  const size_t cuts[] = {0, 1, 7, 16, 64, size / 3, size / 2, size - 64, size - 4, size - 1};
  for (size_t i = 0; i < sizeof cuts / sizeof *cuts; i++) {
    CHECK(write_file(bad, file, cuts[i]));
    snprintf(what, sizeof what, "truncated to %zu of %zu bytes", cuts[i], size);
    expect_bad_snapshot(bad, what);
  }
  /* one flipped byte anywhere: the header, the contents, the end */
  for (int i = 0; i < 24; i++) {
    size_t at = i < 8 ? (size_t)i * 3 : i < 12 ? size - 1 - (size_t)(i - 8) * 5 : hg_test_rand() % size;
    unsigned char bit = (unsigned char)(1u << (hg_test_rand() % 8));
    file[at] ^= bit;
    CHECK(write_file(bad, file, size));
    file[at] ^= bit;
    snprintf(what, sizeof what, "byte %zu of %zu xor %#x", at, size, bit);
    expect_bad_snapshot(bad, what);
  }
  unsigned char *junk = malloc(size);
  hg_test_fill_random(junk, size);
  CHECK(write_file(bad, junk, size));
  expect_bad_snapshot(bad, "random bytes");
  free(junk);
  free(file);
  free(data);
  clReleaseKernel(k);
  clReleaseProgram(p);
  clReleaseMemObject(b);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  remove_dir(dir);
}

/* ---- two processes ---- */

#define HEAT_N 16384
#define HEAT_LS 128
#define HEAT_STEPS 400
#define HEAT_HALF 200

static uint32_t heat_add(int step) { return (uint32_t)(step % 3); }

/* Process A (HG_MIG_STEP=A, started by the test below): HEAT_HALF steps on the vendor backend,
 * a checkpoint with the next step's arguments set, "ok" on the pipe, then more steps until
 * killed. */
HG_TEST(heat_process_a) {
  const char *step_env = getenv("HG_MIG_STEP");
  if (!step_env || strcmp(step_env, "A")) {
    hg_test_skip("process A of two_process_checkpoint_kill_restore (HG_MIG_STEP=A)");
    return;
  }
  int fd = atoi(getenv("HG_MIG_FD"));
  const char *dir = getenv("HG_MIG_DIR");
  char path[1100];
  snprintf(path, sizeof path, "%s/heat.init", dir);
  unsigned char *init;
  size_t size;
  FILE *pipe_out = fdopen(fd, "w");
  CHECK(pipe_out);
  if (!mg_init() || !read_file(path, &init, &size) || size != HEAT_N * 4) {
    fprintf(pipe_out, "fail setup\n");
    fflush(pipe_out);
    CHECK(false);
  }
  cl_context ctx = hg_test_context();
  mg.migrate(ctx, mg_vendor, 0, 0, NULL); /* wherever HETGPU_BACKEND started it */
  if (mg_backend_of(ctx) != mg_vendor) {
    fprintf(pipe_out, "fail not on the vendor backend (%u)\n", mg_backend_of(ctx));
    fflush(pipe_out);
    CHECK(false);
  }
  cl_command_queue q = hg_test_queue(ctx, 0);
  cl_int err;
  cl_mem u[2];
  u[0] = clCreateBuffer(ctx, CL_MEM_COPY_HOST_PTR, HEAT_N * 4, init, &err);
  u[1] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, HEAT_N * 4, NULL, &err);
  cl_program p = hg_test_build(ctx, mg_kernels_src, NULL);
  cl_kernel k = clCreateKernel(p, "stencil", &err);
  mg.set_label(u[0], "u0");
  mg.set_label(u[1], "u1");
  mg.set_label(k, "heat");
  size_t global = HEAT_N, local = HEAT_LS;
  for (int s = 0; err == CL_SUCCESS; s++) {
    err = set_stencil(k, u[s % 2], u[(s + 1) % 2], HEAT_N, HEAT_LS, heat_add(s));
    if (s == HEAT_HALF) {
      err = err ? err : mg.checkpoint(ctx, getenv("HG_MIG_SNAPSHOT"), 0, 0);
      fprintf(pipe_out, err == CL_SUCCESS ? "ok\n" : "fail checkpoint %d\n", err);
      fflush(pipe_out);
    }
    if (err == CL_SUCCESS)
      err = clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (s % 16 == 0 && err == CL_SUCCESS)
      err = clFinish(q);
    if (s > 1000000)
      break; /* never reached: the parent kills this process */
  }
  fprintf(pipe_out, "fail %d\n", err);
  fflush(pipe_out);
  CHECK_CL(err);
}

HG_TEST(two_process_checkpoint_kill_restore) {
  if (getenv("HG_MIG_STEP"))
    return;
  MG_REQUIRE();
  char dir[1024], path[1100], snap[1100];
  CHECK(temp_dir(dir, sizeof dir));
  snprintf(path, sizeof path, "%s/heat.init", dir);
  snprintf(snap, sizeof snap, "%s/heat.hgsnap", dir);
  uint32_t *u = malloc(HEAT_N * 4), *v = malloc(HEAT_N * 4);
  for (int i = 0; i < HEAT_N; i++)
    u[i] = hg_test_rand() & 0xFFFFFF; /* a temperature field; stays far from overflow */
  for (int i = 0; i < 8; i++)
    u[hg_test_rand() % HEAT_N] = 0x3FFFFFF; /* hot spots */
  CHECK(write_file(path, u, HEAT_N * 4));
  int fds[2];
  CHECK(pipe(fds) == 0);
  fflush(stdout);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    close(fds[0]);
    char fd[16];
    snprintf(fd, sizeof fd, "%d", fds[1]);
    setenv("HG_MIG_STEP", "A", 1);
    setenv("HG_MIG_FD", fd, 1);
    setenv("HG_MIG_DIR", dir, 1);
    setenv("HG_MIG_SNAPSHOT", snap, 1);
    setenv("HETGPU_BACKEND", "vendor:Portable", 1);
    execl("/proc/self/exe", "migrate_checkpoint", "heat_process_a", (char *)NULL);
    _exit(127);
  }
  close(fds[1]);
  FILE *in = fdopen(fds[0], "r");
  char line[256] = "";
  bool got_line = in && fgets(line, sizeof line, in) != NULL;
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  if (in)
    fclose(in);
  CHECK_MSG(got_line && !strcmp(line, "ok\n"), "process A: '%s' (exit status %#x)", got_line ? line : "nothing", status);
  CHECK_MSG(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "process A ended with status %#x, not by SIGKILL",
            status);

  /* process B (this one): restore on the backend named "riscv", run the rest */
  long rv = mg_backend_by_name("riscv");
  CHECK(rv >= 0);
  cl_int err;
  cl_context ctx = mg.restore(hg_test_platform, snap, (cl_backend_id_hetgpu)rv, &err);
  CHECK_CL(err);
  CHECK(mg_backend_of(ctx) == (cl_backend_id_hetgpu)rv);
  cl_command_queue q;
  cl_uint nq = 0;
  CHECK_CL(mg.get_objects(ctx, CL_OBJECT_COMMAND_QUEUE_HETGPU, 1, (void **)&q, &nq));
  CHECK(nq == 1);
  cl_mem ub[2];
  cl_kernel k;
  CHECK_CL(mg.get_by_label(ctx, "u0", NULL, (void **)&ub[0]));
  CHECK_CL(mg.get_by_label(ctx, "u1", NULL, (void **)&ub[1]));
  CHECK_CL(mg.get_by_label(ctx, "heat", NULL, (void **)&k));
  size_t global = HEAT_N, local = HEAT_LS;
  /* step HEAT_HALF with the arguments A had set; then the rest */
  CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  for (int s = HEAT_HALF + 1; s < HEAT_STEPS; s++) {
    CHECK_CL(set_stencil(k, ub[s % 2], ub[(s + 1) % 2], HEAT_N, HEAT_LS, heat_add(s)));
    CHECK_CL(clEnqueueNDRangeKernel(q, k, 1, NULL, &global, &local, 0, NULL, NULL));
  }
  uint32_t *got = malloc(HEAT_N * 4);
  memset(got, 0xA5, HEAT_N * 4);
  CHECK_CL(clEnqueueReadBuffer(q, ub[HEAT_STEPS % 2], CL_TRUE, 0, HEAT_N * 4, got, 0, NULL, NULL));
  /* the uninterrupted run, on the host */
  for (int s = 0; s < HEAT_STEPS; s++) {
    mg_ref_stencil(u, v, HEAT_N, heat_add(s));
    uint32_t *t = u;
    u = v, v = t;
  }
  CHECK_U32(got, u, HEAT_N, "after %d steps (%d on PoCL in process A, %d on RISC-V here)", HEAT_STEPS, HEAT_HALF,
            HEAT_STEPS - HEAT_HALF);
  CHECK(mg_backend_of(ctx) == (cl_backend_id_hetgpu)rv);
  mg_release_restored(ctx);
  free(got), free(u), free(v);
  remove_dir(dir);
}
