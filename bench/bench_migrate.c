/* bench-migrate: what moving a whole context between hetGPU's backends costs
 * (cl_hetgpu_migrate), phase by phase, against the floor measured in the same run: the host's
 * memcpy of the same bytes between two freshly touched malloc'd buffers (best of a few). Also a
 * checkpoint to a file against write()+fsync of the same bytes, and a restore on each backend
 * against read() of the same file.
 *
 * Per total size (1 MiB .. 2 GiB, split into buffers of at most CL_DEVICE_MAX_MEM_ALLOC_SIZE;
 * sizes above CL_DEVICE_GLOBAL_MEM_SIZE or the host's memory are skipped and said so) and per
 * ordered pair of backends A -> B: a context is filled by a kernel on a vendor backend (the
 * RISC-V simulator would take minutes to fill gigabytes), moved to A untimed, then REPS round
 * trips A -> B -> A are timed; the median of each direction is printed (the first trip also
 * builds the program on B: the median leaves that out, the build column shows what remains).
 * Then the context moves to B once more and every byte is read back there and compared with
 * what the fill kernel wrote.
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
#include <sys/stat.h>
#include <unistd.h>

#include "bench_util.h"

#define MIB ((size_t)1024 * 1024)
#define MAX_BACKENDS 8
#define MAX_BUFFERS 64

static const char *fill_src =
    "__kernel void fill(__global uint *p, uint base, uint seed) {\n"
    "  uint i = (uint)get_global_id(0) * 16u;\n"
    "  for (uint k = 0; k < 16u; k++) p[i + k] = ((base + i + k) * 2654435761u) ^ seed; }\n";

/* The word the fill kernel writes at element j of buffer b (elements counted over all buffers). */
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

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* ---- floors ---- */

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
  cl_kernel kernel;
  cl_mem bufs[MAX_BUFFERS];
  size_t sizes[MAX_BUFFERS];
  unsigned nbufs;
  size_t total;
  uint32_t seed;
} workload;

static void migrate_or_die(cl_context ctx, cl_backend_id_hetgpu to, cl_migration_report_hetgpu *r) {
  cl_migration_report_hetgpu local;
  cl_int err = ext.migrate(ctx, to, 0, 0, r ? r : &local);
  if (err != CL_SUCCESS) {
    fprintf(stderr, "clMigrateContextHETGPU to backend %u failed: %d\n", to, err);
    exit(1);
  }
}

/* Creates the context on `fill_be`, its buffers filled there by the kernel, then moves it to `a`. */
static void workload_create(workload *w, cl_device_id dev, size_t total, size_t max_alloc, cl_backend_id_hetgpu fill_be,
                            cl_backend_id_hetgpu a, uint32_t seed) {
  cl_int err;
  memset(w, 0, sizeof *w);
  w->total = total;
  w->seed = seed;
  w->ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  migrate_or_die(w->ctx, fill_be, NULL); /* empty: only switches where it runs */
  w->queue = clCreateCommandQueueWithProperties(w->ctx, dev, NULL, &err);
  CHECK(err);
  w->program = clCreateProgramWithSource(w->ctx, 1, &fill_src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(w->program, 1, &dev, "", NULL, NULL));
  w->kernel = clCreateKernel(w->program, "fill", &err);
  CHECK(err);
  size_t left = total, base = 0;
  while (left) {
    size_t n = left < max_alloc ? left : max_alloc;
    unsigned i = w->nbufs++;
    w->sizes[i] = n;
    w->bufs[i] = clCreateBuffer(w->ctx, CL_MEM_READ_WRITE, n, NULL, &err);
    CHECK(err);
    char label[32];
    snprintf(label, sizeof label, "buf%u", i);
    CHECK(ext.set_label(w->bufs[i], label));
    cl_uint b = (cl_uint)(base / 4);
    CHECK(clSetKernelArg(w->kernel, 0, sizeof(cl_mem), &w->bufs[i]));
    CHECK(clSetKernelArg(w->kernel, 1, sizeof b, &b));
    CHECK(clSetKernelArg(w->kernel, 2, sizeof seed, &seed));
    size_t global = n / 4 / 16;
    CHECK(clEnqueueNDRangeKernel(w->queue, w->kernel, 1, NULL, &global, NULL, 0, NULL, NULL));
    left -= n;
    base += n;
  }
  CHECK(clFinish(w->queue));
  migrate_or_die(w->ctx, a, NULL);
}

/* Reads every buffer back through `q` and compares with the fill kernel's words; returns the
 * number of wrong words. `find` looks the buffers up by label (a restored context). */
static size_t verify(cl_context ctx, cl_command_queue q, cl_mem *bufs, const size_t *sizes, unsigned n, uint32_t seed) {
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
        wrong += tmp[k] != expected(first + k, seed);
    }
    base += sizes[i];
  }
  free(tmp);
  return wrong;
}

static void workload_release(workload *w) {
  for (unsigned i = 0; i < w->nbufs; i++)
    clReleaseMemObject(w->bufs[i]);
  clReleaseKernel(w->kernel);
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

static char backend_names[MAX_BACKENDS][128];

static const char *short_name(cl_backend_id_hetgpu b) {
  const char *n = backend_names[b];
  if (!strncmp(n, "vendor:", 7))
    n += 7;
  static char buf[MAX_BACKENDS][24];
  snprintf(buf[b], sizeof buf[b], "%.20s", n);
  return buf[b];
}

static void size_label(size_t bytes, char *out, size_t cap) {
  if (bytes >= 1024 * MIB && bytes % (1024 * MIB) == 0)
    snprintf(out, cap, "%zu GiB", (size_t)(bytes / (1024 * MIB)));
  else
    snprintf(out, cap, "%zu MiB", (size_t)(bytes / MIB));
}

typedef struct phases {
  double quiesce, capture, build, transfer, resume, total;
} phases;

static void print_row(const char *size, cl_backend_id_hetgpu from, cl_backend_id_hetgpu to, const phases *p,
                      size_t bytes, double floor_s) {
  char pair[64];
  snprintf(pair, sizeof pair, "%s -> %s", short_name(from), short_name(to));
  printf("%-8s %-34s %8.3f %8.3f %8.3f %9.3f %8.3f %10.3f %7.2f %10.3f %6.2f\n", size, pair, p->quiesce * 1e3,
         p->capture * 1e3, p->build * 1e3, p->transfer * 1e3, p->resume * 1e3, p->total * 1e3, bytes / p->total / 1e9,
         floor_s * 1e3, p->total / floor_s);
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

  cl_backend_id_hetgpu backends[MAX_BACKENDS];
  cl_uint nb = 0;
  CHECK(ext.backend_ids(hp, MAX_BACKENDS, backends, &nb));
  nb = nb < MAX_BACKENDS ? nb : MAX_BACKENDS;
  cl_backend_id_hetgpu fill_be = backends[0];
  bool have_vendor = false;
  for (cl_uint i = 0; i < nb; i++) {
    char kind[32] = "";
    cl_ulong mem = 0;
    CHECK(ext.backend_info(hp, backends[i], CL_BACKEND_NAME_HETGPU, sizeof backend_names[0],
                           backend_names[backends[i]], NULL));
    ext.backend_info(hp, backends[i], CL_BACKEND_KIND_HETGPU, sizeof kind, kind, NULL);
    ext.backend_info(hp, backends[i], CL_BACKEND_GLOBAL_MEM_SIZE_HETGPU, sizeof mem, &mem, NULL);
    printf("backend %u: %s (%s, %llu MiB)\n", backends[i], backend_names[backends[i]], kind,
           (unsigned long long)(mem / MIB));
    if (!have_vendor && !strcmp(kind, "vendor"))
      fill_be = backends[i], have_vendor = true;
  }
  if (nb < 2) {
    fprintf(stderr, "need at least two backends to migrate between (have %u)\n", nb);
    return 1;
  }
  cl_device_id dev;
  CHECK(clGetDeviceIDs(hp, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_ulong global_mem = 0, max_alloc = 0;
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem, NULL));
  CHECK(clGetDeviceInfo(dev, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof max_alloc, &max_alloc, NULL));
  max_alloc &= ~(cl_ulong)(64 * 16 - 1); /* whole work-items of the fill kernel */
  size_t host_mem = (size_t)sysconf(_SC_PHYS_PAGES) * (size_t)sysconf(_SC_PAGESIZE);
  printf("hetGPU device: global memory %llu MiB, largest allocation %llu MiB; host memory %zu MiB; "
         "fill kernel on %s; median of %d round trips\n",
         (unsigned long long)(global_mem / MIB), (unsigned long long)(max_alloc / MIB), host_mem / MIB,
         backend_names[fill_be], reps);

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
    /* the source and the target copy live at once during a move, plus the floor's two buffers
     * measured before: 2x, with a margin for everything else */
    if (total * 5 / 2 > host_mem) {
      printf("\n%s: skipped: the host's memory (%zu MiB) cannot hold two copies\n", label, host_mem / MIB);
      continue;
    }
    double floor_s = memcpy_floor_s(total, total <= 256 * MIB ? 5 : 3);
    printf("\n%s in %zu buffer(s); floor: memcpy %.3f ms (%.2f GB/s)\n", label, (size_t)((total + max_alloc - 1) / max_alloc),
           floor_s * 1e3, total / floor_s / 1e9);
    printf("%-8s %-34s %8s %8s %8s %9s %8s %10s %7s %10s %6s\n", "size", "from -> to", "quiesce", "capture", "build",
           "transfer", "resume", "total(ms)", "GB/s", "floor(ms)", "ratio");
    bool ckpt_done[MAX_BACKENDS] = {false};
    for (cl_uint ia = 0; ia < nb; ia++)
      for (cl_uint ib = 0; ib < nb; ib++) {
        if (ia == ib)
          continue;
        cl_backend_id_hetgpu a = backends[ia], b = backends[ib];
        workload w;
        uint32_t seed = 0x9e3779b9u ^ (uint32_t)(s * 131 + ia * 17 + ib);
        workload_create(&w, dev, total, max_alloc, fill_be, a, seed);
        double v[2][6][101];
        cl_ulong bytes = 0;
        for (int r = 0; r < reps; r++)
          for (int dir = 0; dir < 2; dir++) {
            cl_migration_report_hetgpu rep;
            migrate_or_die(w.ctx, dir ? a : b, &rep);
            if (rep.bytes != total) {
              fprintf(stderr, "migration moved %llu bytes, expected %zu\n", (unsigned long long)rep.bytes, total);
              failures++;
            }
            bytes = rep.bytes;
            v[dir][0][r] = rep.quiesce_ns * 1e-9;
            v[dir][1][r] = rep.capture_ns * 1e-9;
            v[dir][2][r] = rep.build_ns * 1e-9;
            v[dir][3][r] = rep.transfer_ns * 1e-9;
            v[dir][4][r] = rep.resume_ns * 1e-9;
            v[dir][5][r] = rep.total_ns * 1e-9;
          }
        for (int dir = 0; dir < 2; dir++) {
          phases p = {median(v[dir][0], reps), median(v[dir][1], reps), median(v[dir][2], reps),
                      median(v[dir][3], reps), median(v[dir][4], reps), median(v[dir][5], reps)};
          print_row(label, dir ? b : a, dir ? a : b, &p, bytes, floor_s);
        }
        /* the bytes really moved: read them back on B and compare with what the kernel wrote */
        migrate_or_die(w.ctx, b, NULL);
        size_t wrong = verify(w.ctx, w.queue, w.bufs, w.sizes, w.nbufs, seed);
        printf("%-8s %-34s data read back on %s after %d round trips + 1 move: %s (%zu wrong words)\n", label, "",
               short_name(b), reps, wrong ? "WRONG" : "ok", wrong);
        failures += wrong != 0;

        /* checkpoint from B (once per backend), then restore on every backend */
        if (sizes_mib[s] <= ckpt_max_mib && !ckpt_done[ib]) {
          ckpt_done[ib] = true;
          double wfloor = write_fsync_floor_s(floor_path, total, 2);
          double best = 1e30;
          for (int r = 0; r < 2; r++) {
            unlink(ckpt_path);
            double t0 = bench_now_s();
            CHECK(ext.checkpoint(w.ctx, ckpt_path, 0, 0));
            double t = bench_now_s() - t0;
            best = t < best ? t : best;
          }
          struct stat st;
          stat(ckpt_path, &st);
          printf("%-8s checkpoint from %-18s to file: %9.3f ms %6.2f GB/s; floor write()+fsync %9.3f ms; ratio %5.2f "
                 "(file %lld bytes)\n",
                 label, short_name(b), best * 1e3, total / best / 1e9, wfloor * 1e3, best / wfloor,
                 (long long)st.st_size);
          double rfloor = read_floor_s(ckpt_path, 3);
          for (cl_uint ic = 0; ic < nb; ic++) {
            cl_int err;
            double t0 = bench_now_s();
            cl_context rc = ext.restore(hp, ckpt_path, backends[ic], &err);
            double t = bench_now_s() - t0;
            CHECK(err);
            cl_command_queue rq = NULL;
            cl_uint nq = 0;
            CHECK(ext.objects(rc, CL_OBJECT_COMMAND_QUEUE_HETGPU, 1, (void **)&rq, &nq));
            size_t rwrong = nq ? verify(rc, rq, NULL, w.sizes, w.nbufs, seed) : total;
            printf("%-8s restore on %-23s from file: %9.3f ms %6.2f GB/s; floor read() (warm cache) %9.3f ms; ratio "
                   "%5.2f; data %s\n",
                   label, short_name(backends[ic]), t * 1e3, total / t / 1e9, rfloor * 1e3, t / rfloor,
                   rwrong ? "WRONG" : "ok");
            failures += rwrong != 0;
            release_restored(rc);
          }
          unlink(ckpt_path);
        }
        workload_release(&w);
        fflush(stdout);
      }
  }
  if (failures) {
    fprintf(stderr, "%d check(s) failed\n", failures);
    return 1;
  }
  return 0;
}
