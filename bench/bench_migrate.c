/* bench-migrate: what moving a whole context between hetGPU's backends costs
 * (cl_hetgpu_migrate), phase by phase, against the floor measured in the same run: the host's
 * memcpy of the same bytes between two touched malloc'd buffers (best of a few), or for a move
 * with a GPU side the PCIe copy of the same bytes from or to pinned host memory through the GPU
 * vendor's own OpenCL (when its platform is visible: run with the vendor beside hetGPU); one
 * memcpy into freshly mmapped memory is printed beside it for reference
 * (the first-touch cost). Also a
 * checkpoint to a file against write()+fsync of the same bytes, and a restore on each backend
 * against read() of the same file.
 *
 * Per total size (1 MiB .. 2 GiB, split into buffers of at most CL_DEVICE_MAX_MEM_ALLOC_SIZE and
 * a quarter of the smallest backend's memory; sizes above CL_DEVICE_GLOBAL_MEM_SIZE, the smallest
 * backend's memory or the host's are skipped and said so) and per
 * ordered pair A -> B of every backend, a fresh context is created on A, its buffers written
 * there from the host, and then:
 *   first    it moves to B once: B never held it, so its memory is fresh (and B builds the program);
 *   steady   REPS round trips A -> B -> A with, before every move, an untimed kernel adding 1 to
 *            every word of every buffer where the context is: the copy the other side kept is
 *            stale, so each move copies every byte into memory that side already allocated;
 *   release  REPS round trips with CL_MIGRATE_RELEASE_SOURCE_HETGPU on every move (and the same
 *            writes): each move goes into fresh memory on the target and frees the source.
 * Every timed move must move every byte. Then the context moves to B once more and every word
 * is read back there and compared with its initial value plus the number of increments; up to
 * --checkpoint-max-mib the context is checkpointed from B (once per B) and restored on every
 * backend, and the restored data verified.
 *
 * Usage: bench-migrate [--max-mib N] [--reps N] [--checkpoint-max-mib N] [--no-checkpoint]
 * (HETGPU_BENCH_MAX_MIB sets the default of --max-mib). bench/run_migrate.sh arranges that the
 * build tree's hetGPU and the system's vendors are visible to the ICD loader. */
#define _POSIX_C_SOURCE 200809L
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_hetgpu.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"

#define MIB ((size_t)1024 * 1024)
#define MAX_BACKENDS 8
#define MAX_BUFFERS 64

/* Between timed moves: add 1 to every word, 16 words per work-item. */
static const char *inc_src =
    "__kernel void inc(__global uint *p) {\n"
    "  uint i = (uint)get_global_id(0) * 16u;\n"
    "  for (uint k = 0; k < 16u; k++) p[i + k] += 1u; }\n";

/* The initial word at element `global_index` (elements counted over all buffers). */
static inline uint32_t expected(uint64_t global_index, uint32_t seed) {
  return ((uint32_t)global_index * 2654435761u) ^ seed;
}

static struct {
  clGetBackendIDsHETGPU_fn backend_ids;
  clGetBackendInfoHETGPU_fn backend_info;
  clMigrateContextHETGPU_fn migrate;
  clCheckpointContextHETGPU_fn checkpoint;
  clRestoreContextHETGPU_fn restore;
  clGetContextObjectsHETGPU_fn objects;
  clSetObjectLabelHETGPU_fn set_label;
  clGetObjectByLabelHETGPU_fn by_label;
} ext;

static void *ext_fn(cl_platform_id p, const char *name) {
  void *f = clGetExtensionFunctionAddressForPlatform(p, name);
  if (!f) {
    fprintf(stderr, "hetGPU does not give %s\n", name);
    exit(1);
  }
  return f;
}

static double median(double *v, int n) {
  bench_sort(v, (size_t)n);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- floors ---- */

/* Best of 3 blocking copies of `bytes` between a pinned host buffer (CL_MEM_ALLOC_HOST_PTR,
 * mapped) and a device buffer on the first GPU of a platform named NVIDIA, in both directions;
 * false when there is none. Larger sizes are timed in pieces of up to 1 GiB. */
static bool pcie_floor_s(size_t bytes, double *h2d, double *d2h) {
  cl_platform_id p = bench_find_platform("NVIDIA");
  cl_device_id d;
  if (!p || clGetDeviceIDs(p, CL_DEVICE_TYPE_GPU, 1, &d, NULL) != CL_SUCCESS)
    return false;
  size_t piece = bytes < (1ul << 30) ? bytes : (1ul << 30);
  cl_int err;
  cl_context c = clCreateContext(NULL, 1, &d, NULL, NULL, &err);
  cl_command_queue q = clCreateCommandQueueWithProperties(c, d, NULL, &err);
  cl_mem dev = clCreateBuffer(c, CL_MEM_READ_WRITE, piece, NULL, &err);
  cl_mem pin = clCreateBuffer(c, CL_MEM_ALLOC_HOST_PTR, piece, NULL, &err);
  void *h = pin ? clEnqueueMapBuffer(q, pin, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, piece, 0, NULL, NULL, &err) : NULL;
  bool ok = dev && h;
  *h2d = *d2h = 1e30;
  for (int r = 0; ok && r < 3; r++) {
    double t0 = bench_now_s();
    for (size_t off = 0; off < bytes; off += piece)
      clEnqueueWriteBuffer(q, dev, CL_TRUE, 0, bytes - off < piece ? bytes - off : piece, h, 0, NULL, NULL);
    double t1 = bench_now_s();
    for (size_t off = 0; off < bytes; off += piece)
      clEnqueueReadBuffer(q, dev, CL_TRUE, 0, bytes - off < piece ? bytes - off : piece, h, 0, NULL, NULL);
    double t2 = bench_now_s();
    *h2d = t1 - t0 < *h2d ? t1 - t0 : *h2d;
    *d2h = t2 - t1 < *d2h ? t2 - t1 : *d2h;
  }
  if (h)
    clEnqueueUnmapMemObject(q, pin, h, 0, NULL, NULL);
  clFinish(q);
  if (pin)
    clReleaseMemObject(pin);
  if (dev)
    clReleaseMemObject(dev);
  clReleaseCommandQueue(q);
  clReleaseContext(c);
  return ok;
}

/* Best of `reps` memcpy of `bytes` between two malloc'd buffers touched first. */
static double memcpy_floor_s(size_t bytes, int reps) {
  uint8_t *a = malloc(bytes), *b = malloc(bytes);
  if (!a || !b) {
    fprintf(stderr, "no host memory for the %zu-byte memcpy floor\n", bytes);
    exit(1);
  }
  memset(a, 0x5a, bytes);
  memset(b, 0xa5, bytes);
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now_s();
    memcpy(b, a, bytes);
    double t = bench_now_s() - t0;
    best = t < best ? t : best;
    a[r] ^= b[bytes - 1 - r]; /* keep the copies observable */
  }
  free(a);
  free(b);
  return best;
}

/* One memcpy of `bytes` from a touched buffer into freshly mmapped memory (every page faulted
 * in by the copy): what a move into memory the target never touched costs at least. */
static double memcpy_fresh_s(size_t bytes) {
  uint8_t *a = malloc(bytes);
  if (!a)
    exit(1);
  memset(a, 0x5a, bytes);
  uint8_t *b = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (b == MAP_FAILED) {
    perror("mmap");
    exit(1);
  }
  double t0 = bench_now_s();
  memcpy(b, a, bytes);
  double t = bench_now_s() - t0;
  a[0] ^= b[bytes - 1];
  munmap(b, bytes);
  free(a);
  return t;
}

static void write_all(int fd, const uint8_t *p, size_t n) {
  while (n) {
    ssize_t w = write(fd, p, n);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      perror("write");
      exit(1);
    }
    p += w;
    n -= (size_t)w;
  }
}

/* Best of `reps` (create, write() of `bytes` from a touched buffer, fsync, close) to `path`. */
static double write_fsync_floor_s(const char *path, size_t bytes, int reps) {
  uint8_t *a = malloc(bytes);
  if (!a)
    exit(1);
  memset(a, 0x3c, bytes);
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    unlink(path);
    double t0 = bench_now_s();
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
      perror(path);
      exit(1);
    }
    write_all(fd, a, bytes);
    if (fsync(fd) != 0)
      perror("fsync");
    close(fd);
    double t = bench_now_s() - t0;
    best = t < best ? t : best;
  }
  unlink(path);
  free(a);
  return best;
}

/* Best of `reps` read() of the whole file into a touched buffer (the page cache is warm). */
static double read_floor_s(const char *path, int reps) {
  struct stat st;
  if (stat(path, &st) != 0)
    return 0;
  size_t bytes = (size_t)st.st_size;
  uint8_t *a = malloc(bytes);
  memset(a, 0, bytes);
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now_s();
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    size_t done = 0;
    while (done < bytes) {
      ssize_t n = read(fd, a + done, bytes - done);
      if (n <= 0)
        break;
      done += (size_t)n;
    }
    close(fd);
    double t = bench_now_s() - t0;
    best = t < best ? t : best;
  }
  free(a);
  return best;
}

/* ---- the workload ---- */

typedef struct workload {
  cl_context ctx;
  cl_command_queue queue;
  cl_program program;
  cl_kernel inc;
  cl_mem bufs[MAX_BUFFERS];
  size_t sizes[MAX_BUFFERS];
  unsigned nbufs;
  size_t total;
  uint32_t seed;
  uint32_t count; /* how many times every word was incremented since it was written */
  cl_backend_id_hetgpu on;
} workload;

static cl_int migrate(workload *w, cl_backend_id_hetgpu to, cl_migration_flags_hetgpu flags,
                      cl_migration_report_hetgpu *r) {
  cl_migration_report_hetgpu local;
  cl_int err = ext.migrate(w->ctx, to, flags, 0, r ? r : &local);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clMigrateContextHETGPU to backend %u (flags %#llx) failed: %d\n", to,
            (unsigned long long)flags, err);
    exit(1);
  }
  w->on = to;
  return err;
}

/* Writes the initial words (expected(), from the host) into every buffer of a context that runs
 * on `a`: it visits no other backend, so the first move away from `a` goes into fresh memory. */
static void workload_create(workload *w, cl_device_id dev, size_t total, size_t max_alloc, cl_backend_id_hetgpu a,
                            uint32_t seed) {
  cl_int err;
  memset(w, 0, sizeof *w);
  w->total = total;
  w->seed = seed;
  w->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  migrate(w, a, 0, NULL); /* empty: only switches where it runs */
  w->queue = clCreateCommandQueueWithProperties(w->ctx, dev, NULL, &err);
  CHECK(err);
  w->program = clCreateProgramWithSource(w->ctx, 1, &inc_src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(w->program, 1, &dev, "", NULL, NULL));
  w->inc = clCreateKernel(w->program, "inc", &err);
  CHECK(err);
  size_t chunk = 64 * MIB, left = total, base = 0;
  uint32_t *tmp = malloc(chunk);
  if (!tmp)
    exit(1);
  while (left) {
    size_t n = left < max_alloc ? left : max_alloc;
    unsigned i = w->nbufs++;
    w->sizes[i] = n;
    w->bufs[i] = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, n, NULL, &err);
    CHECK(err);
    char label[32];
    snprintf(label, sizeof label, "buf%u", i);
    CHECK(ext.set_label(w->bufs[i], label));
    for (size_t off = 0; off < n; off += chunk) {
      size_t len = n - off < chunk ? n - off : chunk;
      uint64_t first = (base + off) / 4;
      for (size_t k = 0; k < len / 4; k++)
        tmp[k] = expected(first + k, seed);
      CHECK(clEnqueueWriteBuffer(w->queue, w->bufs[i], CL_TRUE, off, len, tmp, 0, NULL, NULL));
    }
    left -= n;
    base += n;
  }
  free(tmp);
}

/* Adds 1 to every word of every buffer, by a kernel on the backend the context is on: every
 * other copy of every buffer goes stale, so the next move has to copy all the bytes. */
static void workload_write(workload *w) {
  for (unsigned i = 0; i < w->nbufs; i++) {
    size_t global = w->sizes[i] / 4 / 16;
    CHECK(clSetKernelArg(w->inc, 0, sizeof(cl_mem), &w->bufs[i]));
    CHECK(clEnqueueNDRangeKernel(w->queue, w->inc, 1, NULL, &global, NULL, 0, NULL, NULL));
  }
  CHECK(clFinish(w->queue));
  w->count++;
}

/* Reads every buffer back through `q` and compares with the initial words plus `count`; returns
 * the number of wrong words. NULL `bufs`: looks the buffers up by label (a restored context). */
static size_t verify(cl_context ctx, cl_command_queue q, cl_mem *bufs, const size_t *sizes, unsigned n, uint32_t seed,
                     uint32_t count) {
  size_t wrong = 0, base = 0, chunk = 64 * MIB;
  uint32_t *tmp = malloc(chunk);
  for (unsigned i = 0; i < n; i++) {
    cl_mem m = bufs ? bufs[i] : NULL;
    if (!m) {
      char label[32];
      cl_object_type_hetgpu type;
      snprintf(label, sizeof label, "buf%u", i);
      CHECK(ext.by_label(ctx, label, &type, (void **)&m));
    }
    for (size_t off = 0; off < sizes[i]; off += chunk) {
      size_t len = sizes[i] - off < chunk ? sizes[i] - off : chunk;
      memset(tmp, 0xEE, len);
      CHECK(clEnqueueReadBuffer(q, m, CL_TRUE, off, len, tmp, 0, NULL, NULL));
      uint64_t first = (base + off) / 4;
      for (size_t k = 0; k < len / 4; k++)
        wrong += tmp[k] != expected(first + k, seed) + count;
    }
    base += sizes[i];
  }
  free(tmp);
  return wrong;
}

static void workload_release(workload *w) {
  for (unsigned i = 0; i < w->nbufs; i++)
    clReleaseMemObject(w->bufs[i]);
  clReleaseKernel(w->inc);
  clReleaseProgram(w->program);
  clReleaseCommandQueue(w->queue);
  clReleaseContext(w->ctx);
}

/* A restored context's objects belong to the application: release each, then the context. */
static void release_restored(cl_context ctx) {
  static const cl_object_type_hetgpu order[] = {CL_OBJECT_KERNEL_HETGPU, CL_OBJECT_PROGRAM_HETGPU, CL_OBJECT_MEM_HETGPU,
                                                CL_OBJECT_COMMAND_QUEUE_HETGPU};
  for (int t = 0; t < 4; t++) {
    cl_uint n = 0;
    CHECK(ext.objects(ctx, order[t], 0, NULL, &n));
    if (!n)
      continue;
    void **objs = calloc(n ? n : 1, sizeof *objs);
    CHECK(ext.objects(ctx, order[t], n, objs, NULL));
    for (cl_uint i = 0; i < n; i++) {
      switch (order[t]) {
      case CL_OBJECT_KERNEL_HETGPU: clReleaseKernel(objs[i]); break;
      case CL_OBJECT_PROGRAM_HETGPU: clReleaseProgram(objs[i]); break;
      case CL_OBJECT_MEM_HETGPU: clReleaseMemObject(objs[i]); break;
      default: clReleaseCommandQueue(objs[i]);
      }
    }
    free(objs);
  }
  clReleaseContext(ctx);
}

/* ---- output ---- */

static cl_backend_id_hetgpu backends[MAX_BACKENDS];
static char backend_names[MAX_BACKENDS][128];
static bool backend_gpu[MAX_BACKENDS];
static cl_uint nbackends;
/* The PCIe floor of the current size: a pinned host <-> GPU copy of the same bytes through the
 * GPU vendor's own OpenCL (0 when no GPU platform is visible). */
static double pcie_h2d_s, pcie_d2h_s;

/* The floor of a move: the PCIe copy when a GPU is one side (and it was measured), else the
 * host memcpy. */
static double row_floor(cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, double memcpy_s) {
  for (cl_uint i = 0; i < nbackends; i++) {
    if (backend_gpu[i] && backends[i] == to && pcie_h2d_s > 0)
      return pcie_h2d_s;
    if (backend_gpu[i] && backends[i] == from && pcie_d2h_s > 0)
      return pcie_d2h_s;
  }
  return memcpy_s;
}

/* The backend's CL_BACKEND_NAME_HETGPU without "vendor:", at most 20 characters. */
static const char *short_name(cl_backend_id_hetgpu b) {
  static char buf[MAX_BACKENDS][24];
  for (cl_uint i = 0; i < nbackends; i++) {
    if (backends[i] != b)
      continue;
    const char *n = backend_names[i];
    if (!strncmp(n, "vendor:", 7))
      n += 7;
    snprintf(buf[i], sizeof buf[i], "%.20s", n);
    return buf[i];
  }
  return "?";
}

static void size_label(size_t bytes, char *out, size_t cap) {
  if (bytes >= 1024 * MIB && bytes % (1024 * MIB) == 0)
    snprintf(out, cap, "%zu GiB", (size_t)(bytes / (1024 * MIB)));
  else
    snprintf(out, cap, "%zu MiB", (size_t)(bytes / MIB));
}

enum { P_PREPARE, P_QUIESCE, P_CAPTURE, P_BUILD, P_TRANSFER, P_RESUME, P_DOWNTIME, P_TOTAL, P_N };

/* The timed moves of one kind and direction: each phase's values, and the bytes they moved. */
typedef struct samples {
  double v[P_N][101];
  int n;
  cl_ulong bytes;
  bool bytes_varied;
} samples;

static void add_sample(samples *s, const cl_migration_report_hetgpu *r) {
  const cl_ulong ns[P_N] = {r->prepare_ns,  r->quiesce_ns,  r->capture_ns, r->build_ns,
                            r->transfer_ns, r->resume_ns, r->downtime_ns, r->total_ns};
  for (int p = 0; p < P_N; p++)
    s->v[p][s->n] = ns[p] * 1e-9;
  if (s->n && r->bytes != s->bytes)
    s->bytes_varied = true;
  s->bytes = r->bytes;
  s->n++;
}

static void print_header(void) {
  printf("%-8s %-8s %-34s %8s %8s %8s %8s %9s %8s %9s %10s %7s %10s %6s %6s\n", "size", "mode", "from -> to",
         "prepare", "quiesce", "capture", "build", "transfer", "resume", "downtime", "total(ms)", "GB/s", "floor(ms)",
         "ratio", "best");
}

/* One row: the median of each phase over the samples (a single move for "first"). `downtime`
 * is the time the context's commands were held at the gate (quiesce through resume); `prepare`
 * came before it, while they ran on the source (the target's builds, allocations and page
 * faults); `total` adds both and the source's release after. `ratio` is the median downtime
 * over the floor, `best` the shortest downtime over it (the floor is a best of a few too: like
 * against like, where a busy machine spreads the median); GB/s is bytes over the downtime. */
static void print_row(const char *size, const char *mode, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to,
                      samples *s, double floor_s) {
  double m[P_N];
  for (int p = 0; p < P_N; p++)
    m[p] = median(s->v[p], s->n);
  char pair[64];
  snprintf(pair, sizeof pair, "%s -> %s", short_name(from), short_name(to));
  floor_s = row_floor(from, to, floor_s);
  double best = s->v[P_DOWNTIME][0];
  for (int i = 1; i < s->n; i++)
    best = s->v[P_DOWNTIME][i] < best ? s->v[P_DOWNTIME][i] : best;
  printf("%-8s %-8s %-34s %8.3f %8.3f %8.3f %8.3f %9.3f %8.3f %9.3f %10.3f %7.2f %10.3f %6.2f %6.2f\n", size, mode,
         pair, m[P_PREPARE] * 1e3, m[P_QUIESCE] * 1e3, m[P_CAPTURE] * 1e3, m[P_BUILD] * 1e3, m[P_TRANSFER] * 1e3,
         m[P_RESUME] * 1e3, m[P_DOWNTIME] * 1e3, m[P_TOTAL] * 1e3, s->bytes / m[P_DOWNTIME] / 1e9, floor_s * 1e3,
         m[P_DOWNTIME] / floor_s, best / floor_s);
}

/* Every timed move must have moved every byte of the context (all of them were written since). */
static int check_bytes(const char *mode, const samples *s, size_t total) {
  if (s->bytes == total && !s->bytes_varied)
    return 0;
  fprintf(stderr, "%s: a migration moved %llu bytes, expected %zu\n", mode, (unsigned long long)s->bytes, total);
  return 1;
}

/* Checkpoints the context (on w->on) to a file, then restores the file on every backend and
 * verifies each restored context. Returns the number of failed checks. */
static int checkpoint_and_restore(cl_platform_id hp, workload *w, const char *label, const char *ckpt_path,
                                  const char *floor_path) {
  int failures = 0;
  double wfloor = write_fsync_floor_s(floor_path, w->total, 2);
  double best = 1e30;
  for (int r = 0; r < 2; r++) {
    unlink(ckpt_path);
    double t0 = bench_now_s();
    CHECK(ext.checkpoint(w->ctx, ckpt_path, 0, 0));
    double t = bench_now_s() - t0;
    best = t < best ? t : best;
  }
  struct stat st;
  stat(ckpt_path, &st);
  printf("%-8s checkpoint from %-18s to file: %9.3f ms %6.2f GB/s; floor write()+fsync %9.3f ms; ratio %5.2f "
         "(file %lld bytes)\n",
         label, short_name(w->on), best * 1e3, w->total / best / 1e9, wfloor * 1e3, best / wfloor,
         (long long)st.st_size);
  double rfloor = read_floor_s(ckpt_path, 3);
  for (cl_uint ic = 0; ic < nbackends; ic++) {
    cl_int err;
    double t0 = bench_now_s();
    cl_context rc = ext.restore(hp, ckpt_path, backends[ic], &err);
    double t = bench_now_s() - t0;
    CHECK(err);
    cl_command_queue rq = NULL;
    cl_uint nq = 0;
    CHECK(ext.objects(rc, CL_OBJECT_COMMAND_QUEUE_HETGPU, 1, (void **)&rq, &nq));
    size_t rwrong = nq ? verify(rc, rq, NULL, w->sizes, w->nbufs, w->seed, w->count) : w->total;
    printf("%-8s restore on %-23s from file: %9.3f ms %6.2f GB/s; floor read() (warm cache) %9.3f ms; ratio "
           "%5.2f; data %s\n",
           label, short_name(backends[ic]), t * 1e3, w->total / t / 1e9, rfloor * 1e3, t / rfloor,
           rwrong ? "WRONG" : "ok");
    failures += rwrong != 0;
    release_restored(rc);
  }
  unlink(ckpt_path);
  return failures;
}

/* One ordered pair A -> B at one size: the first move into fresh memory, REPS steady round trips
 * with a write on each side in between, REPS release round trips; then the data is verified. */
static int measure_pair(cl_platform_id hp, cl_device_id dev, size_t total, size_t max_alloc, cl_backend_id_hetgpu a,
                        cl_backend_id_hetgpu b, uint32_t seed, int reps, double floor_s, const char *label,
                        bool checkpoint, const char *ckpt_path, const char *floor_path) {
  int failures = 0;
  workload w;
  workload_create(&w, dev, total, max_alloc, a, seed);
  cl_migration_report_hetgpu rep;

  /* first: B never held the context; its memory is allocated and touched by this move */
  static samples first, steady[2], release[2];
  memset(&first, 0, sizeof first);
  memset(steady, 0, sizeof steady);
  memset(release, 0, sizeof release);
  migrate(&w, b, 0, &rep);
  add_sample(&first, &rep);
  failures += check_bytes("first", &first, total);

  /* steady: both sides hold an allocated copy; each side writes every word before the move, so
   * each move copies everything into the other side's (stale) copy */
  for (int r = 0; r < reps; r++)
    for (int dir = 1; dir >= 0; dir--) { /* B -> A, then A -> B */
      workload_write(&w);
      migrate(&w, dir ? a : b, 0, &rep);
      add_sample(&steady[dir], &rep);
    }
  failures += check_bytes("steady", &steady[0], total) + check_bytes("steady", &steady[1], total);

  /* release: every move frees the source, so every move goes into fresh memory on the target.
   * One untimed move B -> A frees B's copy; A still holds its copy from the steady trips. */
  workload_write(&w);
  migrate(&w, a, CL_MIGRATE_RELEASE_SOURCE_HETGPU, NULL);
  for (int r = 0; r < reps; r++)
    for (int dir = 0; dir < 2; dir++) { /* A -> B, then B -> A */
      workload_write(&w);
      migrate(&w, dir ? a : b, CL_MIGRATE_RELEASE_SOURCE_HETGPU, &rep);
      add_sample(&release[dir], &rep);
    }
  failures += check_bytes("release", &release[0], total) + check_bytes("release", &release[1], total);

  print_row(label, "first", a, b, &first, floor_s);
  print_row(label, "steady", a, b, &steady[0], floor_s);
  print_row(label, "steady", b, a, &steady[1], floor_s);
  print_row(label, "release", a, b, &release[0], floor_s);
  print_row(label, "release", b, a, &release[1], floor_s);

  /* the bytes really moved: one more move to B, read everything back there */
  migrate(&w, b, 0, NULL);
  size_t wrong = verify(w.ctx, w.queue, w.bufs, w.sizes, w.nbufs, seed, w.count);
  printf("%-8s %-8s %-34s data read back on %s after %u writes and %d moves: %s (%zu wrong words)\n", label, "", "",
         short_name(b), w.count, 3 + 4 * reps, wrong ? "WRONG" : "ok", wrong);
  failures += wrong != 0;
  if (checkpoint)
    failures += checkpoint_and_restore(hp, &w, label, ckpt_path, floor_path);
  workload_release(&w);
  fflush(stdout);
  return failures;
}

static void usage(void) {
  fprintf(stderr, "usage: bench-migrate [--max-mib N] [--reps N] [--checkpoint-max-mib N] [--no-checkpoint]\n");
  exit(2);
}

int main(int argc, char **argv) {
  size_t max_mib = getenv("HETGPU_BENCH_MAX_MIB") ? strtoull(getenv("HETGPU_BENCH_MAX_MIB"), NULL, 10) : 2048;
  size_t ckpt_max_mib = 1024;
  int reps = 5;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--max-mib") && i + 1 < argc)
      max_mib = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--checkpoint-max-mib") && i + 1 < argc)
      ckpt_max_mib = strtoull(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--no-checkpoint"))
      ckpt_max_mib = 0;
    else
      usage();
  }
  if (reps < 1 || reps > 101)
    usage();

  cl_platform_id hp = bench_find_platform("hetGPU");
  if (!hp) {
    fprintf(stderr, "hetGPU is not visible to the ICD loader (bench/run_migrate.sh sets OCL_ICD_VENDORS)\n");
    return 1;
  }
  char exts[4096] = "";
  clGetPlatformInfo(hp, CL_PLATFORM_EXTENSIONS, sizeof exts, exts, NULL);
  if (!strstr(exts, CL_HETGPU_MIGRATE_EXTENSION_NAME)) {
    fprintf(stderr, "hetGPU does not advertise cl_hetgpu_migrate\n");
    return 1;
  }
  ext.backend_ids = (clGetBackendIDsHETGPU_fn)ext_fn(hp, "clGetBackendIDsHETGPU");
  ext.backend_info = (clGetBackendInfoHETGPU_fn)ext_fn(hp, "clGetBackendInfoHETGPU");
  ext.migrate = (clMigrateContextHETGPU_fn)ext_fn(hp, "clMigrateContextHETGPU");
  ext.checkpoint = (clCheckpointContextHETGPU_fn)ext_fn(hp, "clCheckpointContextHETGPU");
  ext.restore = (clRestoreContextHETGPU_fn)ext_fn(hp, "clRestoreContextHETGPU");
  ext.objects = (clGetContextObjectsHETGPU_fn)ext_fn(hp, "clGetContextObjectsHETGPU");
  ext.set_label = (clSetObjectLabelHETGPU_fn)ext_fn(hp, "clSetObjectLabelHETGPU");
  ext.by_label = (clGetObjectByLabelHETGPU_fn)ext_fn(hp, "clGetObjectByLabelHETGPU");

  CHECK(ext.backend_ids(hp, MAX_BACKENDS, backends, &nbackends));
  nbackends = nbackends < MAX_BACKENDS ? nbackends : MAX_BACKENDS;
  /* The device's limits are its starting backend's (docs/virtual-device.md); a buffer must fit
   * every backend the workload visits, whose largest allocation is at least a quarter of its
   * memory (OpenCL's minimum): the buffers are split by the smallest such quarter. */
  cl_ulong smallest_quarter = ~(cl_ulong)0;
  for (cl_uint i = 0; i < nbackends; i++) {
    char kind[32] = "";
    cl_ulong mem = 0;
    CHECK(ext.backend_info(hp, backends[i], CL_BACKEND_NAME_HETGPU, sizeof backend_names[0], backend_names[i], NULL));
    cl_device_type type = 0;
    CHECK(ext.backend_info(hp, backends[i], CL_BACKEND_DEVICE_TYPE_HETGPU, sizeof type, &type, NULL));
    backend_gpu[i] = (type & CL_DEVICE_TYPE_GPU) != 0;
    ext.backend_info(hp, backends[i], CL_BACKEND_KIND_HETGPU, sizeof kind, kind, NULL);
    ext.backend_info(hp, backends[i], CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU, sizeof mem, &mem, NULL);
    if (mem && mem / 4 < smallest_quarter)
      smallest_quarter = mem / 4;
    printf("backend %u: %s (%s, %llu MiB)\n", backends[i], backend_names[i], kind, (unsigned long long)(mem / MIB));
  }
  if (nbackends < 2) {
    fprintf(stderr, "need at least two backends to migrate between (have %u)\n", nbackends);
    return 1;
  }
  cl_device_id dev;
  CHECK(clGetDeviceIDs(hp, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_ulong global_mem = 0, max_alloc = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
  if (max_alloc > smallest_quarter)
    max_alloc = smallest_quarter;
  if (global_mem / 4 > smallest_quarter)
    global_mem = smallest_quarter * 4;
  max_alloc &= ~(cl_ulong)(64 * 16 - 1); /* whole work-items of the inc kernel */
  size_t host_mem = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
  printf("hetGPU device (limited by the smallest backend): global memory %llu MiB, largest allocation %llu MiB; host memory %zu MiB; "
         "per ordered pair: 1 first move, median of %d steady and of %d release moves per direction\n",
         (unsigned long long)(global_mem / MIB), (unsigned long long)(max_alloc / MIB), host_mem / MIB, reps, reps);

  const char *tmpdir = getenv("TMPDIR") && *getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
  char ckpt_path[4096], floor_path[4096];
  snprintf(ckpt_path, sizeof ckpt_path, "%s/bench-migrate-%d.hgsnap", tmpdir, (int)getpid());
  snprintf(floor_path, sizeof floor_path, "%s/bench-migrate-%d.floor", tmpdir, (int)getpid());

  static const size_t sizes_mib[] = {1, 16, 256, 1024, 2048};
  int failures = 0;
  for (size_t s = 0; s < sizeof sizes_mib / sizeof sizes_mib[0]; s++) {
    size_t total = sizes_mib[s] * MIB;
    char label[32];
    size_label(total, label, sizeof label);
    if (sizes_mib[s] > max_mib) {
      printf("\n%s: skipped (--max-mib %zu)\n", label, max_mib);
      continue;
    }
    if (total > global_mem) {
      printf("\n%s: skipped: above the device's global memory (%llu MiB)\n", label,
             (unsigned long long)(global_mem / MIB));
      continue;
    }
    if ((total + max_alloc - 1) / max_alloc > MAX_BUFFERS) {
      printf("\n%s: skipped: more than %d buffers of %llu MiB\n", label, MAX_BUFFERS,
             (unsigned long long)(max_alloc / MIB));
      continue;
    }
    /* both sides keep a copy, and host-memory backends (riscv, PoCL) hold theirs in host memory:
     * 2x, with a margin for the floor's buffers and everything else */
    if (total * 5 / 2 > host_mem) {
      printf("\n%s: skipped: the host's memory (%zu MiB) cannot hold two copies\n", label, host_mem / MIB);
      continue;
    }
    double floor_s = memcpy_floor_s(total, total <= 256 * MIB ? 5 : 3);
    double fresh_s = memcpy_fresh_s(total);
    printf("\n%s in %zu buffer(s); floor: memcpy between touched buffers %.3f ms (%.2f GB/s); memcpy into fresh "
           "memory (first touch, not the floor) %.3f ms (%.2fx)\n",
           label, (size_t)((total + max_alloc - 1) / max_alloc), floor_s * 1e3, total / floor_s / 1e9,
           fresh_s * 1e3, fresh_s / floor_s);
    pcie_h2d_s = pcie_d2h_s = 0;
    if (pcie_floor_s(total, &pcie_h2d_s, &pcie_d2h_s))
      printf("%s PCIe floor (NVIDIA's own OpenCL, pinned host memory): host->GPU %.3f ms (%.2f GB/s), GPU->host "
             "%.3f ms (%.2f GB/s): the floor of a move with a GPU side\n",
             label, pcie_h2d_s * 1e3, total / pcie_h2d_s / 1e9, pcie_d2h_s * 1e3, total / pcie_d2h_s / 1e9);
    print_header();
    bool ckpt_done[MAX_BACKENDS] = {false};
    for (cl_uint ia = 0; ia < nbackends; ia++)
      for (cl_uint ib = 0; ib < nbackends; ib++) {
        if (ia == ib)
          continue;
        uint32_t seed = 0x9e3779b9u ^ (uint32_t)(s * 131 + ia * 17 + ib);
        bool ckpt = sizes_mib[s] <= ckpt_max_mib && !ckpt_done[ib];
        ckpt_done[ib] |= ckpt;
        failures += measure_pair(hp, dev, total, max_alloc, backends[ia], backends[ib], seed, reps, floor_s, label,
                                 ckpt, ckpt_path, floor_path);
      }
  }
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
