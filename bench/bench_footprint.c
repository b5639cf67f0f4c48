/* Resident memory of one program through hetGPU beside the same program on the native platform:
 * each runs in a child process of its own (the ICD loader and both drivers in one process would
 * share their pages), which creates a context, allocates BUFFERS buffers of MIB MiB each, writes
 * them from the host, runs a kernel over each (b[i] = b[i] * 3 + 1), reads one back to check it,
 * and maps one for reading. Printed per platform: resident memory after the ICD loader found the
 * platforms (the drivers' code), the peak (VmHWM) and the increase the buffers brought, with
 * hetGPU / native for each. The buffers alone need BUFFERS x MIB MiB: the floor of the increase.
 * Usage: bench-footprint [NATIVE_PLATFORM_SUBSTRING [BUFFERS [MIB]]] (default Portable 4 64). */
#include <stdint.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench_util.h"

static long status_kib(const char *field) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  size_t n = strlen(field);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, field, n) && line[n] == ':')
      kib = strtol(line + n + 1, NULL, 10);
  if (f)
    fclose(f);
  return kib;
}

static const char *kernel_src = "kernel void scale(global uint *b) { size_t i = get_global_id(0); b[i] = b[i] * 3u + 1u; }";

/* The child: prints "loaded <KiB> peak <KiB> after <KiB>" or exits non-zero. */
static int measure(const char *platform_name, unsigned buffers, size_t mib) {
  cl_platform_id p = bench_find_platform(platform_name);
  long loaded = status_kib("VmRSS");
  if (!p) {
    fprintf(stderr, "no platform named like '%s'\n", platform_name);
    return 2;
  }
  cl_device_id dev;
  CHECK(clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  cl_int err;
  cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err);
  CHECK(err);
  cl_command_queue q = clCreateCommandQueueWithProperties(ctx, dev, NULL, &err);
  CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &kernel_src, NULL, &err);
  CHECK(err);
  CHECK(clBuildProgram(prog, 1, &dev, NULL, NULL, NULL));
  cl_kernel k = clCreateKernel(prog, "scale", &err);
  CHECK(err);
  size_t bytes = mib << 20, words = bytes / 4;
  uint32_t *host = malloc(bytes), *back = malloc(bytes);
  if (!host || !back)
    return 3;
  for (size_t i = 0; i < words; i++)
    host[i] = (uint32_t)(i * 2654435761u);
  cl_mem *bufs = calloc(buffers, sizeof *bufs);
  for (unsigned b = 0; b < buffers; b++) {
    bufs[b] = clCreateBuffer(ctx, CL_MEM_READ_WRITE, bytes, NULL, &err);
    CHECK(err);
    CHECK(clEnqueueWriteBuffer(q, bufs[b], CL_FALSE, 0, bytes, host, 0, NULL, NULL));
    CHECK(clSetKernelArg(k, 0, sizeof bufs[b], &bufs[b]));
    CHECK(clEnqueueNDRangeKernel(q, k, 1, NULL, &words, NULL, 0, NULL, NULL));
  }
  CHECK(clEnqueueReadBuffer(q, bufs[buffers - 1], CL_TRUE, 0, bytes, back, 0, NULL, NULL));
  for (size_t i = 0; i < words; i++)
    if (back[i] != host[i] * 3u + 1u) {
      fprintf(stderr, "%s: word %zu is %u\n", platform_name, i, back[i]);
      return 4;
    }
  uint32_t *mapped = clEnqueueMapBuffer(q, bufs[0], CL_TRUE, CL_MAP_READ, 0, bytes, 0, NULL, NULL, &err);
  CHECK(err);
  int bad = mapped[words - 1] != host[words - 1] * 3u + 1u;
  CHECK(clEnqueueUnmapMemObject(q, bufs[0], mapped, 0, NULL, NULL));
  CHECK(clFinish(q));
  printf("loaded %ld peak %ld after %ld\n", loaded, status_kib("VmHWM"), status_kib("VmRSS"));
  for (unsigned b = 0; b < buffers; b++)
    clReleaseMemObject(bufs[b]);
  clReleaseKernel(k);
  clReleaseProgram(prog);
  clReleaseCommandQueue(q);
  clReleaseContext(ctx);
  return bad ? 4 : 0;
}

/* Runs this program as a child measuring one platform; false on any failure. */
static int child(const char *self, const char *platform_name, const char *buffers, const char *mib, long out[3]) {
  int fd[2];
  if (pipe(fd))
    return 0;
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd[1], 1);
    close(fd[0]);
    execl(self, self, "--child", platform_name, buffers, mib, (char *)NULL);
    _exit(127);
  }
  close(fd[1]);
  char line[256] = "";
  FILE *f = fdopen(fd[0], "r");
  int got = f && fgets(line, sizeof line, f) && sscanf(line, "loaded %ld peak %ld after %ld", &out[0], &out[1], &out[2]) == 3;
  if (f)
    fclose(f);
  int status = 0;
  waitpid(pid, &status, 0);
  return got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

int main(int argc, char **argv) {
  if (argc >= 5 && !strcmp(argv[1], "--child"))
    return measure(argv[2], (unsigned)atoi(argv[3]), (size_t)atol(argv[4]));
  const char *native = argc > 1 ? argv[1] : "Portable", *buffers = argc > 2 ? argv[2] : "4",
             *mib = argc > 3 ? argv[3] : "64";
  long hg[3], nat[3];
  if (!child("/proc/self/exe", "hetGPU", buffers, mib, hg) || !child("/proc/self/exe", native, buffers, mib, nat)) {
    fprintf(stderr, "a measuring process failed\n");
    return 1;
  }
  printf("resident memory, %s buffers of %s MiB (the buffers: %ld MiB)\n", buffers, mib, atol(buffers) * atol(mib));
  printf("%-32s %12s %12s %8s\n", "measure (MiB)", "hetGPU", "native", "ratio");
  const char *names[3] = {"after finding the platforms", "peak (VmHWM)", "at the end (VmRSS)"};
  for (int i = 0; i < 3; i++)
    printf("%-32s %12.1f %12.1f %8.3f\n", names[i], hg[i] / 1024.0, nat[i] / 1024.0, (double)hg[i] / nat[i]);
  printf("%-32s %12.1f %12.1f %8.3f\n", "peak - after finding them", (hg[1] - hg[0]) / 1024.0, (nat[1] - nat[0]) / 1024.0,
         (double)(hg[1] - hg[0]) / (nat[1] - nat[0]));
  return 0;
}
