/* The kernel corpus runner (docs/kernel-corpus.md).
 *
 * For every corpus file (arguments: files or directories): compile with the hetGPU front end,
 * verify the IR, check the text round trip (print -> parse -> print identical, and the parsed
 * module encodes to the same bytes) and the binary round trip (encode -> decode -> encode
 * identical), lower to OpenCL C, build the lowered source and the original file on the
 * reference platform (PoCL through the system loader: run with OCL_ICD_VENDORS pointing at the
 * system's vendors so hetGPU is not in the way), run both on the same fresh random inputs
 * (seeded; the seed is printed; HETGPU_TEST_SEED fixes it) with outputs poisoned, and compare
 * per the compare directive. printf kernels are compared by the text they print (stdout is
 * redirected into a file around each run). The original is built unchanged: contraction of
 * a*b+c is carried through the IR (HG_FP_CONTRACT), so both builds may fuse exactly where the
 * source allows. The lowered source must build without warnings. Prints one line per file and a closing line
 * "N passed, N failed"; exits non-zero when a file failed.
 *
 * HG_CORPUS_PLATFORM=name runs on another platform than PoCL (NVIDIA on the GPU machine).
 * HG_CORPUS_KEEP=dir writes each file's lowered source to dir/<file>.lowered.cl (its build options to
 * <file>.options, its printf table to <file>.printf).
 *
 * API mode (--via hetGPU or HG_CORPUS_VIA=hetGPU): no front end in the runner; the original
 * (the same text the reference builds) is built and run on the hetGPU platform through the
 * OpenCL API, on whichever backend HETGPU_BACKEND selects, and compared with the reference run.
 * Both platforms must be visible to the ICD loader in the one process (the build tree's
 * vendors-all directory). Parsing, inputs, comparison and printf capture are the same code in
 * both modes. --exceptions FILE lists known failures (XFAIL), --timeout S limits one file.
 *
 * IL mode (--il, with --via hetGPU): hetGPU gets each file as SPIR-V instead of source, made by
 * clang and llvm-spirv (corpus_spirv.c) and loaded with clCreateProgramWithIL; the reference
 * still builds the source. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/opencl_c.h"
#include "devices/printf_buffer.h" /* the driver's own formatter, built into this runner */
#include "devices/profile.h"
#include "corpus_spirv.h"

#define MAX_KERNELS 16
#define MAX_ARGS 32
#define GUARD 64
#define POISON 0xA5

/* ---- directives ---- */
typedef enum { ET_INT, ET_UINT, ET_FLOAT, ET_HALF } elem_class;

typedef struct ctype {
  elem_class cls;
  unsigned size;   /* bytes of one element */
  unsigned lanes;  /* as written */
  unsigned slanes; /* storage lanes (3 -> 4) */
} ctype;

typedef enum { A_IN, A_OUT, A_INOUT, A_LOCAL, A_SCALAR, A_BYTES } arg_kind;
typedef enum { INIT_RANDOM, INIT_IOTA, INIT_SPECIAL } init_kind;

typedef struct argd {
  arg_kind kind;
  char type_name[32];
  ctype t;
  size_t count;
  init_kind init;
  double lo, hi;
  uint8_t *bytes; /* A_SCALAR / A_BYTES */
  size_t nbytes;
} argd;

typedef struct kerneld {
  char name[128];
  unsigned nargs;
  argd args[MAX_ARGS];
} kerneld;

typedef enum { CMP_EXACT, CMP_ULP, CMP_ABS, CMP_REL, CMP_NONE } cmp_kind;

typedef struct spec {
  unsigned nkernels;
  kerneld k[MAX_KERNELS];
  unsigned dims;
  size_t global[3], local[3], offset[3];
  bool has_local, has_offset;
  char options[1024];
  cmp_kind cmp;
  double tol;
  double abs_floor; /* CMP_REL: also equal when this close (results that cancel to near 0) */
  bool printf_used;
} spec;

static char g_err[4096];

static void seterr(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(g_err, sizeof g_err, fmt, ap);
  va_end(ap);
}

static bool parse_type(const char *s, ctype *t) {
  static const struct { const char *n; elem_class c; unsigned size; } base[] = {
      {"char", ET_INT, 1}, {"uchar", ET_UINT, 1}, {"short", ET_INT, 2}, {"ushort", ET_UINT, 2},
      {"int", ET_INT, 4}, {"uint", ET_UINT, 4}, {"long", ET_INT, 8}, {"ulong", ET_UINT, 8},
      {"float", ET_FLOAT, 4}, {"double", ET_FLOAT, 8}, {"half", ET_HALF, 2}};
  for (unsigned i = 0; i < sizeof base / sizeof base[0]; i++) {
    size_t n = strlen(base[i].n);
    if (strncmp(s, base[i].n, n)) continue;
    const char *r = s + n;
    unsigned lanes = 1;
    if (*r) {
      char *end;
      lanes = (unsigned)strtoul(r, &end, 10);
      if (*end || !(lanes == 2 || lanes == 3 || lanes == 4 || lanes == 8 || lanes == 16)) continue;
    }
    t->cls = base[i].c;
    t->size = base[i].size;
    t->lanes = lanes;
    t->slanes = lanes == 3 ? 4 : lanes;
    return true;
  }
  return false;
}

static int split(char *line, char **w, int max) {
  int n = 0;
  for (char *tok = strtok(line, " \t\r"); tok && n < max; tok = strtok(NULL, " \t\r")) w[n++] = tok;
  return n;
}

static void store_elem(uint8_t *dst, const ctype *t, double v, bool is_int_text, const char *text);

static bool parse_spec(const char *src, spec *s) {
  memset(s, 0, sizeof *s);
  s->cmp = CMP_EXACT;
  s->printf_used = strstr(src, "printf") != NULL;
  const char *p = src;
  int lineno = 0;
  while (*p) {
    const char *nl = strchr(p, '\n');
    size_t len = nl ? (size_t)(nl - p) : strlen(p);
    lineno++;
    if (len >= 3 && !strncmp(p, "//@", 3)) {
      char line[8192];
      if (len >= sizeof line) { seterr("line %d: directive too long", lineno); return false; }
      memcpy(line, p + 3, len - 3);
      line[len - 3] = 0;
      char opts_copy[8192];
      strcpy(opts_copy, line);
      char *w[80];
      int n = split(line, w, 80);
      if (n == 0) { seterr("line %d: empty directive", lineno); return false; }
      if (!strcmp(w[0], "kernel")) {
        if (n != 2 || s->nkernels == MAX_KERNELS) { seterr("line %d: kernel NAME", lineno); return false; }
        snprintf(s->k[s->nkernels++].name, sizeof s->k[0].name, "%s", w[1]);
      } else if (!strcmp(w[0], "global") || !strcmp(w[0], "local") || !strcmp(w[0], "offset")) {
        if (n < 2 || n > 4) { seterr("line %d: 1 to 3 sizes", lineno); return false; }
        size_t *dst = w[0][0] == 'g' ? s->global : w[0][0] == 'l' ? s->local : s->offset;
        for (int i = 1; i < n; i++) dst[i - 1] = strtoull(w[i], NULL, 10);
        if (w[0][0] == 'g') s->dims = (unsigned)(n - 1);
        if (w[0][0] == 'l') s->has_local = true;
        if (w[0][0] == 'o') s->has_offset = true;
      } else if (!strcmp(w[0], "options")) {
        const char *o = strstr(opts_copy, "options") + 7;
        while (*o == ' ') o++;
        snprintf(s->options, sizeof s->options, "%s", o);
      } else if (!strcmp(w[0], "compare")) {
        if (n == 2 && !strcmp(w[1], "exact")) s->cmp = CMP_EXACT;
        else if (n == 2 && !strcmp(w[1], "none")) s->cmp = CMP_NONE;
        else if (n == 3 && !strcmp(w[1], "ulp")) { s->cmp = CMP_ULP; s->tol = atof(w[2]); }
        else if (n == 3 && !strcmp(w[1], "abs")) { s->cmp = CMP_ABS; s->tol = atof(w[2]); }
        else if ((n == 3 || (n == 5 && !strcmp(w[3], "abs"))) && !strcmp(w[1], "rel")) {
          s->cmp = CMP_REL;
          s->tol = atof(w[2]);
          s->abs_floor = n == 5 ? atof(w[4]) : 0;
        } else { seterr("line %d: compare exact | ulp N | abs E | rel E [abs F] | none", lineno); return false; }
      } else if (!strcmp(w[0], "arg")) {
        if (!s->nkernels) { seterr("line %d: arg before any kernel", lineno); return false; }
        kerneld *k = &s->k[s->nkernels - 1];
        if (n < 2 || k->nargs == MAX_ARGS) { seterr("line %d: arg KIND ...", lineno); return false; }
        argd *a = &k->args[k->nargs++];
        const char *kind = w[1];
        if (!strcmp(kind, "bytes")) {
          if (n != 4) { seterr("line %d: arg bytes N HEX", lineno); return false; }
          a->kind = A_BYTES;
          a->nbytes = strtoull(w[2], NULL, 10);
          if (strlen(w[3]) != 2 * a->nbytes) { seterr("line %d: hex length", lineno); return false; }
          a->bytes = calloc(a->nbytes ? a->nbytes : 1, 1);
          for (size_t i = 0; i < a->nbytes; i++) {
            char h[3] = {w[3][2 * i], w[3][2 * i + 1], 0};
            a->bytes[i] = (uint8_t)strtoul(h, NULL, 16);
          }
          goto next_line;
        }
        if (n < 3 || !parse_type(w[2], &a->t)) { seterr("line %d: bad type", lineno); return false; }
        snprintf(a->type_name, sizeof a->type_name, "%s", w[2]);
        if (!strcmp(kind, "scalar")) {
          a->kind = A_SCALAR;
          int nv = n - 3;
          if (nv != (int)a->t.lanes && !(a->t.lanes == 3 && nv == 4)) { seterr("line %d: %s takes %u values", lineno, w[2], a->t.lanes); return false; }
          a->nbytes = (size_t)a->t.size * a->t.slanes;
          a->bytes = calloc(a->nbytes, 1);
          for (int i = 0; i < nv; i++) store_elem(a->bytes + (size_t)i * a->t.size, &a->t, strtod(w[3 + i], NULL), true, w[3 + i]);
          goto next_line;
        }
        if (n < 4) { seterr("line %d: arg %s TYPE COUNT", lineno, kind); return false; }
        a->count = strtoull(w[3], NULL, 10);
        if (!strcmp(kind, "out") || !strcmp(kind, "local")) {
          a->kind = kind[0] == 'o' ? A_OUT : A_LOCAL;
          if (n != 4) { seterr("line %d: arg %s TYPE COUNT", lineno, kind); return false; }
        } else if (!strcmp(kind, "in") || !strcmp(kind, "inout")) {
          a->kind = kind[2] ? A_INOUT : A_IN;
          if (n < 5) { seterr("line %d: missing init", lineno); return false; }
          if (!strcmp(w[4], "random")) {
            if (n != 7) { seterr("line %d: random LO HI", lineno); return false; }
            a->init = INIT_RANDOM;
            a->lo = strtod(w[5], NULL);
            a->hi = strtod(w[6], NULL);
          } else if (!strcmp(w[4], "iota")) a->init = INIT_IOTA;
          else if (!strcmp(w[4], "special")) a->init = INIT_SPECIAL;
          else { seterr("line %d: init must be random, iota or special", lineno); return false; }
        } else {
          seterr("line %d: unknown arg kind %s", lineno, kind);
          return false;
        }
      } else {
        seterr("line %d: unknown directive %s", lineno, w[0]);
        return false;
      }
    }
  next_line:
    p = nl ? nl + 1 : p + len;
  }
  if (!s->nkernels) { seterr("no //@ kernel directive"); return false; }
  if (!s->dims) { seterr("no //@ global directive"); return false; }
  return true;
}

/* ---- values ---- */
static uint64_t g_rng;
static uint64_t rnd(void) { /* splitmix64 */
  uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

static uint16_t f2h(float f) { /* round to nearest even */
  uint32_t x;
  memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (uint16_t)(sign | 0x7c00 | (m ? 0x200 | (m >> 13) : 0));
  int he = (int)e - 127 + 15;
  if (he >= 31) return (uint16_t)(sign | 0x7c00);
  if (he <= 0) {
    if (he < -10) return (uint16_t)sign;
    m |= 0x800000;
    unsigned shift = (unsigned)(14 - he);
    uint32_t hm = m >> shift, rem = m & ((1u << shift) - 1), halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (hm & 1))) hm++;
    return (uint16_t)(sign | hm);
  }
  uint32_t hm = m >> 13, rem = m & 0x1fff;
  uint32_t r = sign | ((uint32_t)he << 10) | hm;
  if (rem > 0x1000 || (rem == 0x1000 && (hm & 1))) r++;
  return (uint16_t)r;
}

static double h2d(uint16_t h) {
  unsigned e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(1024 + m, (int)e - 25);
  return (h & 0x8000) ? -v : v;
}

static void store_elem(uint8_t *dst, const ctype *t, double v, bool from_text, const char *text) {
  if (t->cls == ET_FLOAT) {
    if (t->size == 4) { float f = (float)v; memcpy(dst, &f, 4); }
    else memcpy(dst, &v, 8);
  } else if (t->cls == ET_HALF) {
    uint16_t h = f2h((float)v);
    memcpy(dst, &h, 2);
  } else {
    uint64_t u;
    if (from_text && text) u = t->cls == ET_INT ? (uint64_t)strtoll(text, NULL, 0) : strtoull(text, NULL, 0);
    else u = t->cls == ET_INT ? (uint64_t)(int64_t)v : (uint64_t)v;
    memcpy(dst, &u, t->size); /* little-endian */
  }
}

static void fill_special(uint8_t *dst, const ctype *t, size_t i) {
  if (t->cls == ET_FLOAT || t->cls == ET_HALF) {
    double tiny = t->cls == ET_HALF ? ldexp(1, -14) : t->size == 4 ? 1.17549435e-38 : 2.2250738585072014e-308;
    double mx = t->cls == ET_HALF ? 65504.0 : t->size == 4 ? 3.40282347e+38 : 1.7976931348623157e308;
    double sub = t->cls == ET_HALF ? ldexp(1, -24) : t->size == 4 ? ldexp(1, -149) : ldexp(1, -1074);
    const double vals[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, tiny / 2, -tiny / 2, mx, -mx, tiny, -tiny, 1.0, -1.0, sub};
    store_elem(dst, t, vals[i % 14], false, NULL);
  } else {
    uint64_t bits = t->size * 8;
    uint64_t umax = bits == 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t smin = 1ull << (bits - 1), smax = smin - 1;
    uint64_t vals[5] = {0, 1, t->cls == ET_UINT ? umax : umax /* -1 */, smin, t->cls == ET_UINT ? umax : smax};
    if (t->cls == ET_UINT) vals[3] = 0; /* unsigned min */
    memcpy(dst, &vals[i % 5], t->size);
  }
}

static void fill_input(uint8_t *dst, const argd *a) {
  size_t n = a->count * a->t.slanes;
  for (size_t i = 0; i < n; i++) {
    uint8_t *e = dst + i * a->t.size;
    if (a->init == INIT_IOTA) {
      if (a->t.cls == ET_FLOAT || a->t.cls == ET_HALF) store_elem(e, &a->t, (double)i, false, NULL);
      else { uint64_t u = i; memcpy(e, &u, a->t.size); }
    } else if (a->init == INIT_SPECIAL) {
      fill_special(e, &a->t, i);
    } else if (a->t.cls == ET_FLOAT || a->t.cls == ET_HALF) {
      double u = (double)(rnd() >> 11) * (1.0 / 9007199254740992.0);
      store_elem(e, &a->t, a->lo + (a->hi - a->lo) * u, false, NULL);
    } else if (a->t.cls == ET_INT) {
      int64_t lo = (int64_t)a->lo, hi = (int64_t)a->hi;
      uint64_t span = (uint64_t)(hi - lo) + 1;
      int64_t v = span ? lo + (int64_t)(rnd() % span) : (int64_t)rnd();
      memcpy(e, &v, a->t.size);
    } else {
      uint64_t lo = (uint64_t)a->lo, hi = a->hi >= 1.8446744073709552e19 ? ~0ull : (uint64_t)a->hi;
      uint64_t span = hi - lo + 1;
      uint64_t v = span ? lo + rnd() % span : rnd();
      memcpy(e, &v, a->t.size);
    }
  }
}

/* ---- running one build ---- */
typedef struct outbuf {
  unsigned kernel, arg;
  uint8_t *data;
  size_t size;
} outbuf;

typedef struct result {
  unsigned nout;
  outbuf out[MAX_KERNELS * MAX_ARGS];
  char *printed; /* captured stdout of the runs (printf kernels) */
  char *log;
} result;

static void free_result(result *r) {
  for (unsigned i = 0; i < r->nout; i++) free(r->out[i].data);
  free(r->printed);
  free(r->log);
  memset(r, 0, sizeof *r);
}

/* One OpenCL platform the runner builds on: the reference (PoCL, or HG_CORPUS_PLATFORM) and,
 * in API mode, hetGPU itself. */
typedef struct cl_target {
  const char *what; /* "reference" or "hetGPU", for messages */
  cl_device_id dev;
  cl_context ctx;
  cl_command_queue queue;
} cl_target;

static cl_target g_ref = {"reference", 0, 0, 0}, g_het = {"hetGPU", 0, 0, 0};

/* Opens the first device of the platform whose name contains `want` (and is, or is not,
 * hetGPU). Only ever called in the per-file child: the parent must not start an OpenCL
 * implementation (its threads would not survive the fork). */
static bool target_open(cl_target *t, const char *want, bool hetgpu) {
  cl_int e;
  cl_platform_id plats[16];
  cl_uint np = 0;
  clGetPlatformIDs(16, plats, &np);
  cl_platform_id plat = NULL;
  for (cl_uint i = 0; i < np && i < 16; i++) {
    char name[256] = "";
    clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof name, name, NULL);
    if (strstr(name, want) && (strstr(name, "hetGPU") != NULL) == hetgpu) plat = plats[i];
  }
  if (!plat) {
    seterr("no platform named like '%s' (OCL_ICD_VENDORS: %s)", want,
           getenv("OCL_ICD_VENDORS") ? getenv("OCL_ICD_VENDORS") : "unset");
    return false;
  }
  if (clGetDeviceIDs(plat, CL_DEVICE_TYPE_ALL, 1, &t->dev, NULL) != CL_SUCCESS) {
    seterr("%s: no device", t->what);
    return false;
  }
  t->ctx = clCreateContext(NULL, 1, &t->dev, NULL, NULL, &e);
  t->queue = t->ctx ? clCreateCommandQueueWithProperties(t->ctx, t->dev, NULL, &e) : NULL;
  if (!t->queue) seterr("%s: no context or queue (%d)", t->what, e);
  return t->ctx && t->queue;
}

/* The reference platform: PoCL, or the one HG_CORPUS_PLATFORM names (NVIDIA on the GPU
 * machine), never hetGPU; in API mode hetGPU as well. */
static bool cl_setup(bool via_hetgpu) {
  const char *want = getenv("HG_CORPUS_PLATFORM") ? getenv("HG_CORPUS_PLATFORM") : "Portable";
  if (!target_open(&g_ref, want, false)) return false;
  return !via_hetgpu || target_open(&g_het, "hetGPU", true);
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)n + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) { free(b); b = NULL; }
  if (b) b[n] = 0;
  if (len) *len = (size_t)n;
  fclose(f);
  return b;
}

/* Builds `source` and runs every kernel of the spec; false with g_err set on failure. */
/* IR mode's printf: the lowered kernels that print take the buffer as a hidden last argument
 * and the driver's formatter prints the records, as the vendor backend does (docs/printf.md). */
static cl_mem printf_buffer_arg(const cl_target *t, cl_kernel k, cl_uint index) {
  static const uint8_t zero[HG_PRINTF_HEADER_BYTES];
  cl_int e;
  cl_mem m = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE, HG_PRINTF_HEADER_BYTES + HG_PROFILE_PRINTF_BUFFER_SIZE, NULL, &e);
  if (m && (clEnqueueWriteBuffer(t->queue, m, CL_TRUE, 0, sizeof zero, zero, 0, NULL, NULL) != CL_SUCCESS ||
            clSetKernelArg(k, index, sizeof m, &m) != CL_SUCCESS)) {
    clReleaseMemObject(m);
    m = NULL;
  }
  return m;
}

static bool printf_buffer_print(const cl_target *t, cl_mem m, const hg_printf_table *pt) {
  size_t n = HG_PRINTF_HEADER_BYTES + HG_PROFILE_PRINTF_BUFFER_SIZE;
  uint8_t *host = malloc(n);
  char *text = NULL;
  size_t len = 0;
  hg_printf_source src = {(const char *const *)pt->formats, pt->num_formats, hg_printf_table_string, (void *)pt};
  bool ok = host && clEnqueueReadBuffer(t->queue, m, CL_TRUE, 0, n, host, 0, NULL, NULL) == CL_SUCCESS &&
            hg_printf_format(host, HG_PROFILE_PRINTF_BUFFER_SIZE, &src, &text, &len) == 0;
  if (ok) hg_printf_write(text, len);
  free(text);
  free(host);
  return ok;
}

/* IL mode: the SPIR-V hetGPU builds instead of the source (corpus_spirv.c) */
static bool g_il_mode;
static void *g_il;
static size_t g_il_size;

/* Whether a build log warns about the source. PoCL's clang on a host without AVX-512 warns that
 * its own builtins' 16-wide vector arguments change the ABI ("without 'avx512f' enabled changes
 * the ABI"): a note on the vendor's library and this host, not on the source. */
static bool log_warns(const char *log) {
  for (const char *line = log; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    char buf[1024];
    snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), line);
    if (strstr(buf, "warning") && !strstr(buf, "changes the ABI"))
      return true;
    line = end ? end + 1 : NULL;
  }
  return false;
}

static bool run_build(const cl_target *t, const char *what, const char *source, const char *options, const spec *s,
                      uint64_t seed, result *r, bool no_warnings, const hg_printf_table *pt) {
  cl_int e;
  bool ok = false;
  bool il = t == &g_het && g_il;
  cl_program prog = il ? clCreateProgramWithIL(t->ctx, g_il, g_il_size, &e)
                       : clCreateProgramWithSource(t->ctx, 1, &source, NULL, &e);
  if (!prog) { seterr("%s: clCreateProgramWith%s %d", what, il ? "IL" : "Source", e); return false; }
  e = clBuildProgram(prog, 1, &t->dev, options, NULL, NULL);
  size_t loglen = 0;
  clGetProgramBuildInfo(prog, t->dev, CL_PROGRAM_BUILD_LOG, 0, NULL, &loglen);
  r->log = calloc(loglen + 1, 1);
  clGetProgramBuildInfo(prog, t->dev, CL_PROGRAM_BUILD_LOG, loglen, r->log, NULL);
  if (e != CL_SUCCESS) {
    seterr("%s: build failed (%d):\n%s", what, e, r->log);
    clReleaseProgram(prog);
    return false;
  }
  if (no_warnings && log_warns(r->log)) {
    seterr("%s: build log has warnings:\n%s", what, r->log);
    clReleaseProgram(prog);
    return false;
  }
  g_rng = seed;
  int saved_stdout = -1;
  char capture_path[] = "/tmp/hg_corpus_printf_XXXXXX";
  int capture_fd = -1;
  if (s->printf_used) {
    capture_fd = mkstemp(capture_path);
    fflush(stdout);
    saved_stdout = dup(1);
    dup2(capture_fd, 1);
  }
  for (unsigned ki = 0; ki < s->nkernels; ki++) {
    const kerneld *kd = &s->k[ki];
    cl_kernel k = clCreateKernel(prog, kd->name, &e);
    if (!k) { seterr("%s: clCreateKernel(%s) %d", what, kd->name, e); goto out; }
    cl_uint nargs = 0;
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof nargs, &nargs, NULL);
    bool prints = pt && hg_printf_table_has_kernel(pt, kd->name);
    if (nargs != kd->nargs + prints) {
      seterr("%s: kernel %s has %u parameters, directives give %u", what, kd->name, nargs, kd->nargs);
      clReleaseKernel(k);
      goto out;
    }
    cl_mem mems[MAX_ARGS] = {0};
    size_t sizes[MAX_ARGS] = {0};
    bool args_ok = true;
    for (unsigned ai = 0; ai < kd->nargs && args_ok; ai++) {
      const argd *a = &kd->args[ai];
      size_t nbytes = a->count * a->t.slanes * a->t.size;
      if (a->kind == A_IN || a->kind == A_INOUT || a->kind == A_OUT) {
        uint8_t *host = malloc(nbytes + GUARD);
        memset(host, POISON, nbytes + GUARD);
        if (a->kind != A_OUT) fill_input(host, a);
        mems[ai] = clCreateBuffer(t->ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, nbytes + GUARD, host, &e);
        free(host);
        sizes[ai] = nbytes;
        if (!mems[ai]) { seterr("%s: clCreateBuffer %d", what, e); args_ok = false; break; }
        e = clSetKernelArg(k, ai, sizeof(cl_mem), &mems[ai]);
      } else if (a->kind == A_LOCAL) {
        e = clSetKernelArg(k, ai, nbytes, NULL);
      } else {
        e = clSetKernelArg(k, ai, a->nbytes, a->bytes);
      }
      if (e != CL_SUCCESS) { seterr("%s: clSetKernelArg(%s, %u) %d", what, kd->name, ai, e); args_ok = false; }
    }
    cl_mem pbuf = NULL;
    if (args_ok && prints && !(pbuf = printf_buffer_arg(t, k, kd->nargs))) {
      seterr("%s: printf buffer of %s", what, kd->name);
      args_ok = false;
    }
    if (args_ok) {
      e = clEnqueueNDRangeKernel(t->queue, k, s->dims, s->has_offset ? s->offset : NULL, s->global,
                                 s->has_local ? s->local : NULL, 0, NULL, NULL);
      if (e == CL_SUCCESS) e = clFinish(t->queue);
      if (e != CL_SUCCESS) { seterr("%s: run of %s: %d", what, kd->name, e); args_ok = false; }
    }
    if (args_ok && pbuf && !printf_buffer_print(t, pbuf, pt)) {
      seterr("%s: reading the printf buffer of %s", what, kd->name);
      args_ok = false;
    }
    if (pbuf) clReleaseMemObject(pbuf);
    for (unsigned ai = 0; ai < kd->nargs; ai++) {
      if (!mems[ai]) continue;
      if (args_ok) {
        uint8_t *host = malloc(sizes[ai] + GUARD);
        clEnqueueReadBuffer(t->queue, mems[ai], CL_TRUE, 0, sizes[ai] + GUARD, host, 0, NULL, NULL);
        bool guard_ok = true;
        for (size_t i = 0; i < GUARD; i++) if (host[sizes[ai] + i] != POISON) guard_ok = false;
        if (!guard_ok) { seterr("%s: kernel %s arg %u: wrote past the end of its buffer", what, kd->name, ai); args_ok = false; }
        if (kd->args[ai].kind != A_IN && r->nout < MAX_KERNELS * MAX_ARGS) {
          outbuf *o = &r->out[r->nout++];
          o->kernel = ki;
          o->arg = ai;
          o->data = host;
          o->size = sizes[ai];
          host = NULL;
        }
        free(host);
      }
      clReleaseMemObject(mems[ai]);
    }
    clReleaseKernel(k);
    if (!args_ok) goto out;
  }
  ok = true;
out:
  if (capture_fd >= 0) {
    fflush(stdout);
    dup2(saved_stdout, 1);
    close(saved_stdout);
    close(capture_fd);
    r->printed = read_file(capture_path, NULL);
    unlink(capture_path);
  }
  clReleaseProgram(prog);
  return ok;
}

/* ---- comparing ---- */
static double elem_value(const uint8_t *p, const ctype *t) {
  if (t->cls == ET_HALF) { uint16_t h; memcpy(&h, p, 2); return h2d(h); }
  if (t->size == 4) { float f; memcpy(&f, p, 4); return f; }
  double d;
  memcpy(&d, p, 8);
  return d;
}

/* Distance in units in the last place between two floats of the element type. */
static double ulp_distance(const uint8_t *a, const uint8_t *b, const ctype *t) {
  int64_t x, y;
  if (t->size == 8) { memcpy(&x, a, 8); memcpy(&y, b, 8); }
  else if (t->size == 4) { int32_t u, v; memcpy(&u, a, 4); memcpy(&v, b, 4); x = u; y = v; }
  else { int16_t u, v; memcpy(&u, a, 2); memcpy(&v, b, 2); x = u; y = v; }
  /* map sign-magnitude to a monotonic integer line */
  int64_t top = t->size == 8 ? INT64_MIN : t->size == 4 ? (int64_t)INT32_MIN : (int64_t)INT16_MIN;
  if (x < 0) x = top - x;
  if (y < 0) y = top - y;
  /* subtract as integers: converting 64-bit patterns to double first rounds them to 1024 ulp */
  uint64_t d = x > y ? (uint64_t)x - (uint64_t)y : (uint64_t)y - (uint64_t)x;
  return (double)d;
}

static void describe(char *buf, size_t n, const uint8_t *p, const ctype *t) {
  if (t->cls == ET_FLOAT || t->cls == ET_HALF) {
    uint64_t bits = 0;
    memcpy(&bits, p, t->size);
    snprintf(buf, n, "%.9g (0x%llx)", elem_value(p, t), (unsigned long long)bits);
  } else if (t->cls == ET_INT) {
    int64_t v = 0;
    memcpy(&v, p, t->size);
    v = (int64_t)((uint64_t)v << (64 - 8 * t->size)) >> (64 - 8 * t->size);
    snprintf(buf, n, "%lld", (long long)v);
  } else {
    uint64_t v = 0;
    memcpy(&v, p, t->size);
    snprintf(buf, n, "%llu", (unsigned long long)v);
  }
}

static bool elements_match(const uint8_t *a, const uint8_t *b, const ctype *t, const spec *s) {
  if (!memcmp(a, b, t->size)) return true;
  if (t->cls == ET_INT || t->cls == ET_UINT) return false;
  double x = elem_value(a, t), y = elem_value(b, t);
  if (isnan(x) && isnan(y)) return true;
  switch (s->cmp) {
  case CMP_NONE: return true;
  case CMP_EXACT: return false;
  case CMP_ULP:
    if (isnan(x) || isnan(y)) return false;
    return ulp_distance(a, b, t) <= s->tol;
  case CMP_ABS: return fabs(x - y) <= s->tol || x == y;
  case CMP_REL: {
    double m = fmax(fabs(x), fabs(y));
    return x == y || fabs(x - y) <= s->tol * m || fabs(x - y) <= s->abs_floor;
  }
  }
  return false;
}

static bool compare(const spec *s, const result *ref, const result *got) {
  if (s->printf_used) {
    const char *a = ref->printed ? ref->printed : "", *b = got->printed ? got->printed : "";
    if (strcmp(a, b)) {
      size_t i = 0;
      while (a[i] && a[i] == b[i]) i++;
      seterr("printf output differs at byte %zu: expected \"%.160s\", got \"%.160s\"", i, a + i, b + i);
      return false;
    }
  }
  if (ref->nout != got->nout) { seterr("different number of outputs"); return false; }
  for (unsigned i = 0; i < ref->nout; i++) {
    const outbuf *o = &ref->out[i], *g = &got->out[i];
    const argd *a = &s->k[o->kernel].args[o->arg];
    size_t n = o->size / a->t.size;
    for (size_t j = 0; j < n; j++) {
      const uint8_t *x = o->data + j * a->t.size, *y = g->data + j * a->t.size;
      if (!elements_match(x, y, &a->t, s)) {
        char e[96], v[96];
        describe(e, sizeof e, x, &a->t);
        describe(v, sizeof v, y, &a->t);
        seterr("kernel %s arg %u (%s): first mismatch at element %zu: expected %s, got %s", s->k[o->kernel].name,
               o->arg, a->type_name, j, e, v);
        return false;
      }
    }
  }
  return true;
}

/* ---- one file ---- */
static bool ir_round_trips(hg_ir_module *m) {
  char err[1024];
  char *t1 = hg_ir_print(m);
  if (!t1) { seterr("hg_ir_print failed"); return false; }
  hg_ir_module *p = hg_ir_parse(t1, err, sizeof err);
  if (!p) { seterr("text round trip: parse failed: %s", err); free(t1); return false; }
  char *t2 = hg_ir_print(p);
  bool ok = t2 && !strcmp(t1, t2);
  if (!ok) {
    size_t i = 0;
    while (t2 && t1[i] && t1[i] == t2[i]) i++;
    seterr("text round trip: print(parse(print(m))) differs at byte %zu: \"%.60s\" vs \"%.60s\"", i, t1 + i, t2 ? t2 + i : "");
  }
  uint8_t *b1 = NULL, *b2 = NULL, *b3 = NULL;
  size_t n1 = 0, n2 = 0, n3 = 0;
  if (ok && hg_ir_encode(m, &b1, &n1)) { seterr("hg_ir_encode failed"); ok = false; }
  if (ok && hg_ir_encode(p, &b2, &n2)) { seterr("hg_ir_encode of the parsed module failed"); ok = false; }
  if (ok && (n1 != n2 || memcmp(b1, b2, n1))) { seterr("text round trip: the parsed module is not equal (binary forms differ)"); ok = false; }
  if (ok) {
    hg_ir_module *d = hg_ir_decode(b1, n1, err, sizeof err);
    if (!d) { seterr("binary round trip: decode failed: %s", err); ok = false; }
    else {
      if (hg_ir_encode(d, &b3, &n3) || n3 != n1 || memcmp(b1, b3, n1)) { seterr("binary round trip: encode(decode(encode(m))) differs"); ok = false; }
      hg_ir_module_free(d);
    }
  }
  free(b1);
  free(b2);
  free(b3);
  free(t1);
  free(t2);
  hg_ir_module_free(p);
  return ok;
}

/* "<area>_<file>": the file name with its folder (names repeat across areas). */
static const char *kept_name(const char *path, char *buf, size_t n) {
  const char *base = strrchr(path, '/');
  const char *area = path;
  if (base) {
    const char *p = base;
    while (p > path && p[-1] != '/') p--;
    area = p;
  }
  snprintf(buf, n, "%s", area);
  for (char *q = buf; *q; q++)
    if (*q == '/') *q = '_';
  return buf;
}

static void put_table(FILE *f, const hg_printf_table *t);
static bool get_table(FILE *f, hg_printf_table *t);

static void keep_source(const char *path, const char *src, const char *opts, const hg_printf_table *pt) {
  const char *dir = getenv("HG_CORPUS_KEEP");
  if (!dir || !src) return;
  char nb[1024];
  const char *base = kept_name(path, nb, sizeof nb);
  char out[4096];
  snprintf(out, sizeof out, "%s/%s.lowered.cl", dir, base);
  FILE *f = fopen(out, "w");
  if (f) { fputs(src, f); fclose(f); }
  snprintf(out, sizeof out, "%s/%s.options", dir, base);
  f = fopen(out, "w");
  if (f) { fputs(opts ? opts : "", f); fclose(f); }
  snprintf(out, sizeof out, "%s/%s.printf", dir, base);
  f = fopen(out, "wb");
  if (f) { put_table(f, pt); fclose(f); }
}

/* HG_CORPUS_LOWERED=dir: take the lowered source kept by an earlier run (HG_CORPUS_KEEP)
 * instead of compiling, for machines without the front end's LLVM. */
static bool load_kept(const char *path, char **lowered, char **opts, hg_printf_table *pt) {
  const char *dir = getenv("HG_CORPUS_LOWERED");
  char nb[1024];
  const char *base = kept_name(path, nb, sizeof nb);
  char p[4096];
  snprintf(p, sizeof p, "%s/%s.lowered.cl", dir, base);
  *lowered = read_file(p, NULL);
  snprintf(p, sizeof p, "%s/%s.options", dir, base);
  *opts = read_file(p, NULL);
  if (!*lowered || !*opts) { seterr("no kept lowered source in %s", dir); return false; }
  snprintf(p, sizeof p, "%s/%s.printf", dir, base);
  FILE *f = fopen(p, "rb");
  bool ok = f && get_table(f, pt);
  if (f) fclose(f);
  if (!ok) seterr("no kept printf table in %s", dir);
  return ok;
}

/* The compile half of a file (front end, verify, round trips, lowering), run in a child
 * process so that a crash there fails the file instead of the run. Output through the pipe:
 * status byte (0 failed, 1 ok), then four length-prefixed strings: error, round-trip error,
 * lowered source, build options of the lowered source. */
static void put_str(FILE *f, const char *s) {
  uint32_t n = s ? (uint32_t)strlen(s) : 0;
  fwrite(&n, 4, 1, f);
  if (n) fwrite(s, 1, n, f);
}
static char *get_bytes(FILE *f, uint32_t *size) {
  uint32_t n = 0;
  if (fread(&n, 4, 1, f) != 1) return NULL;
  char *s = malloc((size_t)n + 1);
  if (!s) return NULL;
  if (n && fread(s, 1, n, f) != n) { free(s); return NULL; }
  s[n] = 0;
  if (size) *size = n;
  return s;
}
static char *get_str(FILE *f) { return get_bytes(f, NULL); }

/* The printf table through the pipe and in kept files: counts, then the strings. */
static void put_table(FILE *f, const hg_printf_table *t) {
  fwrite(&t->num_formats, 4, 1, f);
  for (uint32_t i = 0; i < t->num_formats; i++) put_str(f, t->formats[i]);
  fwrite(&t->num_strings, 4, 1, f);
  for (uint32_t i = 0; i < t->num_strings; i++) {
    fwrite(&t->strings[i].size, 4, 1, f);
    fwrite(t->strings[i].bytes, 1, t->strings[i].size, f);
  }
  fwrite(&t->num_kernels, 4, 1, f);
  for (uint32_t i = 0; i < t->num_kernels; i++) put_str(f, t->kernels[i]);
}
static bool get_table(FILE *f, hg_printf_table *t) {
  memset(t, 0, sizeof *t);
  uint32_t n = 0;
  bool ok = fread(&n, 4, 1, f) == 1 && n < 65536 && (t->formats = calloc(n + 1, sizeof *t->formats));
  for (; ok && t->num_formats < n; t->num_formats++) ok = (t->formats[t->num_formats] = get_str(f)) != NULL;
  ok = ok && fread(&n, 4, 1, f) == 1 && n < 65536 && (t->strings = calloc(n + 1, sizeof *t->strings));
  for (; ok && t->num_strings < n; t->num_strings++)
    ok = (t->strings[t->num_strings].bytes = (uint8_t *)get_bytes(f, &t->strings[t->num_strings].size)) != NULL;
  ok = ok && fread(&n, 4, 1, f) == 1 && n < 65536 && (t->kernels = calloc(n + 1, sizeof *t->kernels));
  for (; ok && t->num_kernels < n; t->num_kernels++) ok = (t->kernels[t->num_kernels] = get_str(f)) != NULL;
  if (!ok) hg_printf_table_free(t);
  return ok;
}

#ifdef HG_CORPUS_NO_FRONTEND /* a build for machines without LLVM: HG_CORPUS_LOWERED only */
cl_int hg_frontend_compile(const char *source, const char *options, const hg_source_header *headers,
                           unsigned num_headers, bool library, hg_ir_module **out, char **log) {
  *out = NULL;
  *log = strdup("built without the front end");
  return CL_COMPILE_PROGRAM_FAILURE;
}
#endif

static void compile_child(const char *src, const char *options, FILE *out) {
  hg_ir_module *m = NULL;
  char *log = NULL, *lowered = NULL;
  char err[2048], rt_err[512] = "";
  hg_printf_table table = {0};
  uint8_t status = 0;
  cl_int e = hg_frontend_compile(src, options, NULL, 0, false, &m, &log);
  if (e != CL_SUCCESS || !m) {
    seterr("front end: %d\n%.3000s", e, log ? log : "");
  } else if (!hg_ir_verify(m, err, sizeof err)) {
    seterr("IR does not verify: %s", err);
  } else {
    /* a round-trip failure fails the file, but the lowering is still run to report on it too */
    if (!ir_round_trips(m)) snprintf(rt_err, sizeof rt_err, "%.500s", g_err);
    lowered = hg_lower_opencl_c(m, &table, err, sizeof err);
    if (!lowered) seterr("lowering: %s", err);
    else status = 1;
  }
  fwrite(&status, 1, 1, out);
  put_str(out, g_err);
  put_str(out, rt_err);
  put_str(out, lowered);
  put_str(out, status ? hg_lower_opencl_c_options(m) : "");
  put_table(out, &table);
  hg_printf_table_free(&table);
  fflush(out);
}

static bool compile_file(const char *src, const char *options, char *rt_err, size_t rt_size, char **lowered,
                         char **lower_opts, hg_printf_table *pt) {
  int fds[2];
  if (pipe(fds)) { seterr("pipe: %s", strerror(errno)); return false; }
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) { seterr("fork: %s", strerror(errno)); close(fds[0]); close(fds[1]); return false; }
  if (pid == 0) {
    close(fds[0]);
    FILE *out = fdopen(fds[1], "wb");
    compile_child(src, options, out);
    fclose(out);
    _exit(0);
  }
  close(fds[1]);
  FILE *in = fdopen(fds[0], "rb");
  uint8_t status = 0;
  bool got = fread(&status, 1, 1, in) == 1;
  char *e = got ? get_str(in) : NULL, *r = got ? get_str(in) : NULL;
  *lowered = got ? get_str(in) : NULL;
  *lower_opts = got ? get_str(in) : NULL;
  bool got_table = got && get_table(in, pt);
  fclose(in);
  int ws = 0;
  waitpid(pid, &ws, 0);
  bool ok = false;
  if (WIFSIGNALED(ws)) seterr("front end or lowering crashed (signal %d)", WTERMSIG(ws));
  else if (!got || !e || !r || !*lowered || !*lower_opts || !got_table) seterr("compile child gave no result");
  else if (!status) seterr("%s", e);
  else ok = true;
  if (r) snprintf(rt_err, rt_size, "%s", r);
  free(e);
  free(r);
  return ok;
}

/* Runs one file. IR mode: front end, round trips, lowering, lowered source against the original
 * on the reference platform. API mode (via_hetgpu): the original built and run on hetGPU through
 * the OpenCL API (on whichever backend HETGPU_BACKEND selects) against the original on the
 * reference platform. */
static bool run_file(const char *path, uint64_t seed, bool via_hetgpu) {
  g_err[0] = 0;
  char *src = read_file(path, NULL);
  if (!src) { seterr("cannot read: %s", strerror(errno)); return false; }
  spec *s = calloc(1, sizeof *s);
  bool ok = false;
  char *lowered = NULL, *lower_opts = NULL;
  result ref = {0}, got = {0};
  char rt_err[512] = "";
  hg_printf_table table = {0};
  if (!parse_spec(src, s)) goto done;
  if (via_hetgpu && g_il_mode) {
    int level;
    char err[2400];
    if (!corpus_to_spirv(path, s->options, &g_il, &g_il_size, &level, err, sizeof err)) {
      seterr("%s", err);
      goto done;
    }
  } else if (via_hetgpu) {
    /* no front end here: hetGPU compiles the source itself */
  } else if (getenv("HG_CORPUS_LOWERED")) {
    if (!load_kept(path, &lowered, &lower_opts, &table)) goto done;
  } else {
    if (!compile_file(src, s->options, rt_err, sizeof rt_err, &lowered, &lower_opts, &table)) goto done;
    keep_source(path, lowered, lower_opts, &table);
  }
  bool ref_ok = run_build(&g_ref, "original on the reference platform", src, s->options, s, seed, &ref, false, NULL);
  if (!ref_ok) {
    char tmp[sizeof g_err];
    memcpy(tmp, g_err, sizeof tmp);
    tmp[sizeof tmp - 64] = 0;
    snprintf(g_err, sizeof g_err, "reference run failed (corpus file problem?): %.3000s", tmp);
    goto done;
  }
  /* API mode builds the very text the reference built */
  bool got_ok = via_hetgpu ? run_build(&g_het, g_il ? "SPIR-V on hetGPU" : "original on hetGPU", src, s->options, s, seed, &got, false, NULL)
                           : run_build(&g_ref, "lowered source", lowered, lower_opts, s, seed, &got, true, &table);
  if (!got_ok) goto done;
  ok = compare(s, &ref, &got);
  if (ok && rt_err[0]) {
    seterr("%s (lowered source ran and matched)", rt_err);
    ok = false;
  }
done:
  free_result(&ref);
  free_result(&got);
  for (unsigned k = 0; k < s->nkernels; k++)
    for (unsigned a = 0; a < s->k[k].nargs; a++) free(s->k[k].args[a].bytes);
  free(s);
  free(lowered);
  free(lower_opts);
  free(g_il);
  g_il = NULL;
  hg_printf_table_free(&table);
  free(src);
  return ok;
}

/* ---- files ---- */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void collect(const char *path, char ***files, size_t *n, size_t *cap) {
  struct stat st;
  if (stat(path, &st)) { fprintf(stderr, "%s: %s\n", path, strerror(errno)); return; }
  if (S_ISDIR(st.st_mode)) {
    DIR *d = opendir(path);
    if (!d) return;
    char **names = NULL;
    size_t nn = 0, cn = 0;
    for (struct dirent *de; (de = readdir(d));) {
      if (de->d_name[0] == '.') continue;
      if (nn == cn) { cn = cn ? cn * 2 : 64; names = realloc(names, cn * sizeof *names); }
      size_t l = strlen(path) + strlen(de->d_name) + 2;
      names[nn] = malloc(l);
      snprintf(names[nn++], l, "%s/%s", path, de->d_name);
    }
    closedir(d);
    qsort(names, nn, sizeof *names, cmp_str);
    for (size_t i = 0; i < nn; i++) {
      struct stat s2;
      size_t l = strlen(names[i]);
      if (!stat(names[i], &s2) && (S_ISDIR(s2.st_mode) || (l > 3 && !strcmp(names[i] + l - 3, ".cl"))))
        collect(names[i], files, n, cap);
      free(names[i]);
    }
    free(names);
    return;
  }
  if (*n == *cap) { *cap = *cap ? *cap * 2 : 64; *files = realloc(*files, *cap * sizeof **files); }
  (*files)[(*n)++] = strdup(path);
}

/* ---- known failures ---- */
/* --exceptions FILE: "area/file.cl reason" per line ('#' comments, blank lines ignored). A listed
 * file that fails is reported as XFAIL with the reason and does not fail the run; a listed file
 * that passes is reported as XPASS (the line can go). */
typedef struct exception_entry {
  char *key;    /* area/file.cl */
  char *reason;
  bool seen;
} exception_entry;

static exception_entry *g_exc;
static size_t g_nexc;

static bool load_exceptions(const char *path) {
  char *text = read_file(path, NULL);
  if (!text) { fprintf(stderr, "cannot read the exceptions file %s\n", path); return false; }
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
    while (*line == ' ' || *line == '\t') line++;
    if (!*line || *line == '#') continue;
    char *sp = line + strcspn(line, " \t");
    char *reason = *sp ? sp + 1 : sp;
    *sp = 0;
    while (*reason == ' ' || *reason == '\t') reason++;
    g_exc = realloc(g_exc, (g_nexc + 1) * sizeof *g_exc);
    g_exc[g_nexc].key = strdup(line);
    g_exc[g_nexc].reason = strdup(*reason ? reason : "(no reason given)");
    g_exc[g_nexc++].seen = false;
  }
  free(text);
  return true;
}

/* The exception for a file path ("area/file.cl" = its last two components), or NULL. */
static exception_entry *find_exception(const char *path) {
  const char *base = strrchr(path, '/');
  const char *key = path;
  if (base) {
    const char *p = base;
    while (p > path && p[-1] != '/') p--;
    key = p;
  }
  for (size_t i = 0; i < g_nexc; i++)
    if (!strcmp(g_exc[i].key, key)) return &g_exc[i];
  return NULL;
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void usage(const char *argv0) {
  fprintf(stderr,
          "usage: %s [--via hetGPU [--il]] [--exceptions FILE] [--timeout SECONDS] FILE.cl|DIR...\n"
          "  --via hetGPU   API mode: run each original on hetGPU through the OpenCL API against the\n"
          "                 reference platform (also HG_CORPUS_VIA=hetGPU); both platforms must be\n"
          "                 visible to the ICD loader (OCL_ICD_VENDORS)\n"
          "  --il           with --via hetGPU: hetGPU gets each file as SPIR-V (clang + llvm-spirv)\n"
          "  --exceptions F known failures, \"area/file.cl reason\" per line (reported as XFAIL)\n"
          "  --timeout S    a file still running after S seconds fails (0: no limit)\n",
          argv0);
}

int main(int argc, char **argv) {
  const char *via = getenv("HG_CORPUS_VIA");
  unsigned timeout = 0;
  int first = 1;
  for (; first < argc && !strncmp(argv[first], "--", 2); first++) {
    const char *a = argv[first], *v = first + 1 < argc ? argv[first + 1] : NULL;
    if (!strcmp(a, "--via") && v) via = v, first++;
    else if (!strcmp(a, "--exceptions") && v) { if (!load_exceptions(v)) return 2; first++; }
    else if (!strcmp(a, "--timeout") && v) timeout = (unsigned)strtoul(v, NULL, 10), first++;
    else if (!strcmp(a, "--il")) g_il_mode = true;
    else { usage(argv[0]); return 2; }
  }
  if (via && *via && strcmp(via, "hetGPU")) {
    fprintf(stderr, "--via / HG_CORPUS_VIA: only hetGPU is known, not '%s'\n", via);
    return 2;
  }
  bool via_hetgpu = via && *via;
  if (g_il_mode && !via_hetgpu) {
    fprintf(stderr, "--il needs --via hetGPU\n");
    return 2;
  }
  if (first >= argc) {
    usage(argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *seed_env = getenv("HETGPU_TEST_SEED");
  uint64_t seed = seed_env ? strtoull(seed_env, NULL, 0) : (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
  printf("seed %llu (HETGPU_TEST_SEED)\n", (unsigned long long)seed);
  if (via_hetgpu)
    printf("API mode: %s on hetGPU (HETGPU_BACKEND=%s) against the reference platform\n",
           g_il_mode ? "SPIR-V of the originals" : "originals", getenv("HETGPU_BACKEND") ? getenv("HETGPU_BACKEND") : "default");

  char **files = NULL;
  size_t nfiles = 0, cap = 0;
  for (int i = first; i < argc; i++) collect(argv[i], &files, &nfiles, &cap);
  unsigned passed = 0, failed = 0, xfailed = 0, xpassed = 0;
  double t_all = now_s();
  for (size_t i = 0; i < nfiles; i++) {
    uint64_t fseed = seed + i * 0x9e3779b97f4a7c15ull;
    exception_entry *exc = find_exception(files[i]);
    if (exc) exc->seen = true;
    /* Each file runs in its own process with its own context: a kernel fault on a GPU
     * poisons the whole process (NVIDIA), and a crash must fail one file, not the run. The
     * parent itself never creates a context, so forking it is safe. The child's verdict
     * line is its own; the parent adds the XFAIL / XPASS line for listed files. */
    fflush(stdout);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid == 0) {
      if (timeout) alarm(timeout);
      bool ok = cl_setup(via_hetgpu) && run_file(files[i], fseed, via_hetgpu);
      if (ok) printf("PASS %s (%.1f s)\n", files[i], now_s() - t0);
      else printf("FAIL %s: %s\n", files[i], g_err[0] ? g_err : "cannot create a context");
      fflush(stdout);
      _exit(ok ? 0 : 1);
    }
    int ws = 0;
    if (pid < 0 || waitpid(pid, &ws, 0) < 0) ws = -1;
    bool ok = pid > 0 && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
    if (pid < 0)
      printf("FAIL %s: fork: %s\n", files[i], strerror(errno));
    else if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM)
      printf("FAIL %s: still running after %u s (--timeout)\n", files[i], timeout);
    else if (!WIFEXITED(ws))
      printf("FAIL %s: the run crashed (signal %d)\n", files[i], WIFSIGNALED(ws) ? WTERMSIG(ws) : -1);
    if (ok && exc) {
      xpassed++;
      printf("XPASS %s [listed as a known failure: %s] (the exceptions line can go)\n", files[i], exc->reason);
    } else if (ok) {
      passed++;
    } else if (exc) {
      xfailed++;
      printf("XFAIL %s [excepted: %s]\n", files[i], exc->reason);
    } else {
      failed++;
    }
    free(files[i]);
  }
  free(files);
  printf("%u passed, %u failed", passed, failed);
  if (g_nexc) printf(", %u known failures excepted (XFAIL), %u listed but passed (XPASS)", xfailed, xpassed);
  printf(" in %.1f s\n", now_s() - t_all);
  return failed ? 1 : 0;
}
