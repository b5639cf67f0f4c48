/* The suite's one executable.
 *
 *   hg_suite [--platform SUBSTRING] [--area NAME[,NAME...]] [--test SUBSTRING] [--seed N]
 *            [--timeout SECONDS] [--exceptions FILE] [--list]
 *
 * The parent runs each area in a child process (itself with --child), so that a crash or a hang
 * in the driver costs one area, not the run. Children print one line per test:
 *   PASS area/test | FAIL area/test: reason | SKIP area/test: reason
 * and the parent prints those, the table area | passed | failed | skipped, every failure's
 * reason and the closing line "N passed, N failed, N skipped". compare.sh reads the lines. */

#include "suite.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The CTS's test areas, in the order the table lists them. */
static const char *const AREAS[] = {"api",         "basic",       "buffers",     "compiler",
                                    "events",      "profiling",   "math",        "integer_ops",
                                    "relationals", "commonfns",   "geometrics",  "atomics",
                                    "vectors",     "conversions", "printf",      "workgroups",
                                    "images_api",  "images_kernel", "images_samplers"};
#define NUM_AREAS (sizeof AREAS / sizeof AREAS[0])

#define MAX_TESTS 4096
static struct {
  const char *area, *name;
  suite_fn fn;
  const void *arg;
} tests[MAX_TESTS];
static int num_tests;

void suite_register(const char *area, const char *name, suite_fn fn, const void *arg) {
  if (num_tests < MAX_TESTS) {
    tests[num_tests].area = area;
    tests[num_tests].name = name;
    tests[num_tests].fn = fn;
    tests[num_tests].arg = arg;
    num_tests++;
  } else
    fprintf(stderr, "suite: too many tests, %s/%s dropped\n", area, name);
}

/* ---- outcome of the current test ---- */
static char fail_reason[1024];
static int fail_count;
static char skip_reason[512];
static bool skipped;

void suite_fail(const char *fmt, ...) {
  if (fail_count++ == 0) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fail_reason, sizeof fail_reason, fmt, ap);
    va_end(ap);
    for (char *c = fail_reason; *c; c++)
      if (*c == '\n')
        *c = ' ';
  }
}
void suite_skip(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(skip_reason, sizeof skip_reason, fmt, ap);
  va_end(ap);
  skipped = true;
}
bool suite_failed(void) { return fail_count > 0; }

/* ---- the device under test ---- */
suite_env S;

static bool has_ext(const char *exts, const char *name) {
  size_t n = strlen(name);
  for (const char *p = exts; (p = strstr(p, name)); p += n)
    if ((p == exts || p[-1] == ' ') && (p[n] == ' ' || p[n] == 0))
      return true;
  return false;
}

static const char *open_device(const char *want) {
  static char why[512];
  cl_uint n = 0;
  if (clGetPlatformIDs(0, NULL, &n) != CL_SUCCESS || n == 0)
    return "no OpenCL platform";
  cl_platform_id ids[32];
  if (n > 32)
    n = 32;
  clGetPlatformIDs(n, ids, NULL);
  for (cl_uint i = 0; i < n && !S.platform; i++) {
    clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof S.platform_name, S.platform_name, NULL);
    if (strstr(S.platform_name, want))
      S.platform = ids[i];
  }
  if (!S.platform) {
    snprintf(why, sizeof why, "no platform whose name contains '%s'", want);
    return why;
  }
  cl_int err = clGetDeviceIDs(S.platform, CL_DEVICE_TYPE_ALL, 1, &S.device, NULL);
  if (err != CL_SUCCESS) {
    snprintf(why, sizeof why, "clGetDeviceIDs on %s: %d", S.platform_name, err);
    return why;
  }
  clGetDeviceInfo(S.device, CL_DEVICE_NAME, sizeof S.device_name, S.device_name, NULL);
  char exts[8192] = "";
  clGetDeviceInfo(S.device, CL_DEVICE_EXTENSIONS, sizeof exts, exts, NULL);
  S.fp64 = has_ext(exts, "cl_khr_fp64");
  S.int64_atomics = has_ext(exts, "cl_khr_int64_base_atomics") && has_ext(exts, "cl_khr_int64_extended_atomics");
  cl_device_fp_config fc = 0;
  clGetDeviceInfo(S.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof fc, &fc, NULL);
  S.fp32_denorm = (fc & CL_FP_DENORM) != 0;
  clGetDeviceInfo(S.device, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof S.max_wg, &S.max_wg, NULL);
  clGetDeviceInfo(S.device, CL_DEVICE_LOCAL_MEM_SIZE, sizeof S.local_mem, &S.local_mem, NULL);
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)S.platform, 0};
  S.ctx = clCreateContext(props, 1, &S.device, NULL, NULL, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, sizeof why, "clCreateContext: %d", err);
    return why;
  }
  S.q = clCreateCommandQueueWithProperties(S.ctx, S.device, NULL, &err);
  if (err != CL_SUCCESS) {
    snprintf(why, sizeof why, "clCreateCommandQueueWithProperties: %d", err);
    return why;
  }
  return NULL;
}

/* ---- child: run one area's tests ---- */
void suite_seed(uint64_t seed);
int suite_printf_child(int index);

static int run_area(const char *area, const char *filter, const char *platform) {
  const char *why = open_device(platform);
  if (why) {
    printf("FAIL %s/setup: %s\n", area, why);
    printf("@@ done\n");
    return 0;
  }
  for (int i = 0; i < num_tests; i++) {
    if (strcmp(tests[i].area, area) != 0 || (filter && !strstr(tests[i].name, filter)))
      continue;
    printf("@@ start %s/%s\n", area, tests[i].name);
    fflush(stdout);
    fail_count = 0;
    skipped = false;
    tests[i].fn(tests[i].arg);
    clFinish(S.q);
    if (fail_count)
      printf("FAIL %s/%s: %s%s\n", area, tests[i].name, fail_reason,
             fail_count > 1 ? " (and more)" : "");
    else if (skipped)
      printf("SKIP %s/%s: %s\n", area, tests[i].name, skip_reason);
    else
      printf("PASS %s/%s\n", area, tests[i].name);
    fflush(stdout);
  }
  printf("@@ done\n");
  fflush(stdout);
  return 0;
}

/* ---- parent: one child per area, the table ---- */
typedef struct {
  int passed, failed, skipped, excepted;
  double seconds;
} counts;

/* --exceptions FILE: known failures ("area/test reason" lines, '#' comments). A listed test that
 * fails is reported as XFAIL with the reason and does not fail the run. */
static char **exc_names, **exc_reasons;
static int num_exc;

static void load_exceptions(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fprintf(stderr, "cannot read the exceptions file %s\n", path);
    exit(2);
  }
  char line[1024];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0] || line[0] == '#')
      continue;
    char *sp = strchr(line, ' ');
    exc_names = realloc(exc_names, sizeof *exc_names * (size_t)(num_exc + 1));
    exc_reasons = realloc(exc_reasons, sizeof *exc_reasons * (size_t)(num_exc + 1));
    exc_reasons[num_exc] = strdup(sp ? sp + 1 : "");
    if (sp)
      *sp = 0;
    exc_names[num_exc++] = strdup(line);
  }
  fclose(f);
}

/* The reason a FAIL line's test is excepted, or NULL. */
static const char *excepted(const char *fail_line) {
  const char *name = fail_line + 5;
  size_t n = strcspn(name, ": ");
  for (int i = 0; i < num_exc; i++)
    if (strlen(exc_names[i]) == n && !strncmp(exc_names[i], name, n))
      return exc_reasons[i];
  return NULL;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static char **failures;
static int num_failures;

static void note_failure(const char *line) {
  failures = realloc(failures, sizeof *failures * (num_failures + 1));
  failures[num_failures++] = strdup(line);
}

static void parent_line(const char *line, counts *c, char *last_start, size_t last_size) {
  if (!strncmp(line, "@@ start ", 9)) {
    snprintf(last_start, last_size, "%s", line + 9);
    return;
  }
  if (!strncmp(line, "@@ ", 3))
    return;
  if (!strncmp(line, "PASS ", 5))
    c->passed++;
  else if (!strncmp(line, "FAIL ", 5) && excepted(line)) {
    c->excepted++;
    printf("XFAIL %s [excepted: %s]\n", line + 5, excepted(line));
    fflush(stdout);
    return;
  } else if (!strncmp(line, "FAIL ", 5)) {
    c->failed++;
    note_failure(line + 5);
  } else if (!strncmp(line, "SKIP ", 5))
    c->skipped++;
  printf("%s\n", line);
  fflush(stdout);
}

static counts spawn_area(const char *area, char **child_argv, int timeout_s) {
  counts c = {0, 0, 0, 0, 0};
  double t0 = now_s();
  int fds[2];
  if (pipe(fds) != 0) {
    perror("pipe");
    exit(2);
  }
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    close(fds[1]);
    execv(S.self, child_argv);
    _exit(127);
  }
  close(fds[1]);
  char buf[65536];
  size_t used = 0;
  char last_start[512] = "(none)";
  bool done = false;
  time_t deadline = time(NULL) + timeout_s;
  for (;;) {
    struct pollfd pfd = {fds[0], POLLIN, 0};
    int left = (int)(deadline - time(NULL));
    if (left <= 0) {
      kill(pid, SIGKILL);
      char line[1024];
      snprintf(line, sizeof line, "FAIL %s/timeout: area killed after %d s, in test %s", area, timeout_s,
               last_start);
      parent_line(line, &c, last_start, sizeof last_start);
      break;
    }
    int r = poll(&pfd, 1, left * 1000);
    if (r < 0 && errno == EINTR)
      continue;
    if (r == 0)
      continue;
    ssize_t n = read(fds[0], buf + used, sizeof buf - 1 - used);
    if (n <= 0)
      break;
    used += (size_t)n;
    buf[used] = 0;
    char *start = buf, *nl;
    while ((nl = strchr(start, '\n'))) {
      *nl = 0;
      if (!strcmp(start, "@@ done"))
        done = true;
      parent_line(start, &c, last_start, sizeof last_start);
      start = nl + 1;
    }
    used = strlen(start);
    memmove(buf, start, used + 1);
    if (used == sizeof buf - 1) /* an overlong line: pass it on as it is */
      used = 0;
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!done && !(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && c.failed)) {
    char line[1024];
    /* the failure is the running test's (so that an exception can name it), or the area's */
    char who[600];
    if (strcmp(last_start, "(none)"))
      snprintf(who, sizeof who, "%s", last_start);
    else
      snprintf(who, sizeof who, "%s/crash", area);
    if (WIFSIGNALED(status))
      snprintf(line, sizeof line, "FAIL %s: the area's process died of signal %d in this test", who,
               WTERMSIG(status));
    else
      snprintf(line, sizeof line, "FAIL %s: the area's process exited with %d before finishing, in this test", who,
               WEXITSTATUS(status));
    parent_line(line, &c, last_start, sizeof last_start);
  }
  c.seconds = now_s() - t0;
  return c;
}

static bool area_selected(const char *area, const char *list) {
  if (!list)
    return true;
  size_t n = strlen(area);
  for (const char *p = list; (p = strstr(p, area)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
      return true;
  return false;
}

int main(int argc, char **argv) {
  const char *platform = getenv("HETGPU_TEST_PLATFORM");
  if (!platform || !*platform)
    platform = "hetGPU";
  const char *areas = NULL, *filter = NULL, *seed_s = getenv("HETGPU_TEST_SEED");
  bool child = false, list = false;
  int printf_child = -2, timeout_s = 300; /* -1: every printf case */
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!strcmp(a, "--platform") && v)
      platform = v, i++;
    else if (!strcmp(a, "--area") && v)
      areas = v, i++;
    else if (!strcmp(a, "--test") && v)
      filter = v, i++;
    else if (!strcmp(a, "--seed") && v)
      seed_s = v, i++;
    else if (!strcmp(a, "--exceptions") && v)
      load_exceptions(v), i++;
    else if (!strcmp(a, "--timeout") && v)
      timeout_s = atoi(v), i++;
    else if (!strcmp(a, "--printf-child") && v)
      printf_child = atoi(v), i++;
    else if (!strcmp(a, "--child"))
      child = true;
    else if (!strcmp(a, "--list"))
      list = true;
    else {
      fprintf(stderr,
              "usage: %s [--platform SUBSTRING] [--area NAME[,NAME]] [--test SUBSTRING] [--seed N] "
              "[--timeout S] [--exceptions FILE] [--list]\n",
              argv[0]);
      return 2;
    }
  }
  static char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  S.self = n > 0 ? (self[n] = 0, self) : argv[0];
  S.platform_arg = platform;
  uint64_t seed = seed_s ? strtoull(seed_s, NULL, 0) : ((uint64_t)time(NULL) * 2654435761u) ^ (uint64_t)getpid();
  suite_seed(seed);

  if (printf_child >= -1) {
    const char *why = open_device(platform);
    if (why) {
      fprintf(stderr, "%s\n", why);
      return 3;
    }
    return suite_printf_child(printf_child);
  }
  if (list) {
    for (int i = 0; i < num_tests; i++)
      if (area_selected(tests[i].area, areas))
        printf("%s/%s\n", tests[i].area, tests[i].name);
    return 0;
  }
  if (child)
    return run_area(areas, filter, platform);

  setvbuf(stdout, NULL, _IOLBF, 0);
  printf("seed %llu (rerun with --seed %llu)\nplatform selected by: %s\n", (unsigned long long)seed,
         (unsigned long long)seed, platform);
  counts per[NUM_AREAS] = {{0}};
  double start = now_s();
  char seed_arg[32];
  snprintf(seed_arg, sizeof seed_arg, "%llu", (unsigned long long)seed);
  for (size_t a = 0; a < NUM_AREAS; a++) {
    if (!area_selected(AREAS[a], areas))
      continue;
    char *cargv[16];
    int k = 0;
    cargv[k++] = (char *)S.self;
    cargv[k++] = "--child";
    cargv[k++] = "--area";
    cargv[k++] = (char *)AREAS[a];
    cargv[k++] = "--platform";
    cargv[k++] = (char *)platform;
    cargv[k++] = "--seed";
    cargv[k++] = seed_arg;
    if (filter) {
      cargv[k++] = "--test";
      cargv[k++] = (char *)filter;
    }
    cargv[k] = NULL;
    per[a] = spawn_area(AREAS[a], cargv, timeout_s);
  }
  counts total = {0, 0, 0, 0, 0};
  printf("\n%-15s | %6s | %6s | %7s | %7s | %8s\n", "area", "passed", "failed", "skipped", "seconds", "excepted");
  printf("----------------|--------|--------|---------|---------|---------\n");
  for (size_t a = 0; a < NUM_AREAS; a++) {
    if (!area_selected(AREAS[a], areas))
      continue;
    printf("%-15s | %6d | %6d | %7d | %7.1f | %8d\n", AREAS[a], per[a].passed, per[a].failed, per[a].skipped,
           per[a].seconds, per[a].excepted);
    total.excepted += per[a].excepted;
    total.passed += per[a].passed;
    total.failed += per[a].failed;
    total.skipped += per[a].skipped;
  }
  if (num_failures) {
    printf("\nfailures:\n");
    for (int i = 0; i < num_failures; i++)
      printf("  %s\n", failures[i]);
  }
  printf("wall time %.1f s\n", now_s() - start);
  if (total.excepted)
    printf("%d known failures excepted (XFAIL lines above)\n", total.excepted);
  printf("%d passed, %d failed, %d skipped\n", total.passed, total.failed, total.skipped);
  return total.failed ? 1 : 0;
}
