/* Area vectors: every element type at every width (2, 3, 4, 8, 16): vload/vstore with offsets,
 * component-wise arithmetic, swizzles (.sN reversal, .even/.odd, .lo/.hi), vec_step. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

static const char *const VT[] = {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"};
static const size_t VS[] = {1, 1, 2, 2, 4, 4, 8, 8, 4, 8};
static const int W[] = {2, 3, 4, 8, 16};

/* The swizzle that reverses a vector of width w: s<w-1>...s0. */
static void reversal(int w, char *rev) {
  static const char *const HEX = "0123456789abcdef";
  rev[0] = 's';
  for (int i = 0; i < w; i++)
    rev[1 + i] = HEX[w - 1 - i];
  rev[1 + w] = 0;
}

/* Every type at every width: one program for the area. */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  b = suite_batch_new(S.fp64 ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable" : "", "");
  for (int t = 0; t < 10; t++)
    for (int wi = 0; wi < 5; wi++) {
      if (t == 9 && !S.fp64)
        continue;
      int w = W[wi];
      char rev[24], name[32];
      reversal(w, rev);
      snprintf(name, sizeof name, "v_%s%d", VT[t], w);
      suite_batch_add(b, name,
                      "#define T %s\n#define V %s%d\n"
                      "__kernel void %s(__global const T *a, __global const T *b, __global T *sum, __global T *rv, __global T *eo, __global int *info) {\n"
                      "  size_t i = get_global_id(0);\n  V x = vload%d(i, a), y = vload%d(i, b + 1);\n"
                      "  vstore%d(x + y, i, sum);\n  vstore%d(x.%s, i, rv);\n"
                      "#if %d >= 4\n  vstore%d(x.even, 2 * i, eo); vstore%d(x.odd, 2 * i + 1, eo);\n#elif %d == 2\n  eo[2 * i] = x.lo; eo[2 * i + 1] = x.hi;\n"
                      "#else\n  eo[2 * i] = x.s0; eo[2 * i + 1] = x.s2;\n#endif\n"
                      "  if (i == 0) info[0] = vec_step(V);\n}\n#undef T\n#undef V\n",
                      VT[t], VT[t], w, name, w, w, w, w, rev, w, w / 2, w / 2, w);
    }
  return b;
}

static void run_vec(const void *arg) {
  int t = (int)(intptr_t)arg / 5, w = W[(int)(intptr_t)arg % 5];
  if (t == 9 && !S.fp64) {
    suite_skip("no cl_khr_fp64");
    return;
  }
  char rev[24];
  reversal(w, rev);
  size_t n = 256, es = VS[t], cnt = n * (size_t)w;
  char kname[32];
  snprintf(kname, sizeof kname, "v_%s%d", VT[t], w);
  cl_kernel k = suite_batch_kernel(batch(), kname);
  if (!k)
    return;
  unsigned char *a = malloc(cnt * es), *b = malloc((cnt + 1) * es), *sum = malloc(cnt * es), *rv = malloc(cnt * es), *eo = malloc((cnt + 2 * n) * es);
  suite_fill(a, cnt * es);
  suite_fill(b, (cnt + 1) * es);
  if (t >= 8) /* finite floating values: compare bit patterns of exact IEEE additions */
    for (size_t i = 0; i < cnt + 1; i++) {
      if (t == 8) { float f = (float)suite_uniform(-1e6, 1e6); if (i < cnt) memcpy(a + i * 4, &f, 4); f = (float)suite_uniform(-1e6, 1e6); memcpy(b + i * 4, &f, 4); }
      else { double d = suite_uniform(-1e6, 1e6); if (i < cnt) memcpy(a + i * 8, &d, 8); d = suite_uniform(-1e6, 1e6); memcpy(b + i * 8, &d, 8); }
    }
  int info = -1;
  cl_mem ma = suite_buffer(cnt * es, a), mb = suite_buffer((cnt + 1) * es, b), ms = suite_buffer(cnt * es, NULL),
         mr = suite_buffer(cnt * es, NULL), me = suite_buffer((cnt + 2 * n) * es, NULL), mi = suite_buffer(4, NULL);
  if (!suite_failed() && suite_args(k, 6, sizeof ma, &ma, sizeof mb, &mb, sizeof ms, &ms, sizeof mr, &mr, sizeof me, &me, sizeof mi, &mi) &&
      suite_run1(k, n, 64) && suite_read(ms, sum, cnt * es) && suite_read(mr, rv, cnt * es) && suite_read(me, eo, (cnt + 2 * n) * es) &&
      suite_read(mi, &info, 4)) {
    REQUIRE(info == (w == 3 ? 4 : w), "vec_step(%s%d) = %d", VT[t], w, info);
    for (size_t i = 0; i < cnt && !suite_failed(); i++) {
      unsigned char want[8] = {0};
      if (t == 8) { float x, y; memcpy(&x, a + i * 4, 4); memcpy(&y, b + (i + 1) * 4, 4); x += y; memcpy(want, &x, 4); }
      else if (t == 9) { double x, y; memcpy(&x, a + i * 8, 8); memcpy(&y, b + (i + 1) * 8, 8); x += y; memcpy(want, &x, 8); }
      else { uint64_t x = 0, y = 0; memcpy(&x, a + i * es, es); memcpy(&y, b + (i + 1) * es, es); x += y; memcpy(want, &x, es); }
      if (memcmp(sum + i * es, want, es))
        suite_fail("%s%d: vload/add/vstore element %zu wrong", VT[t], w, i);
      size_t vi = i / (size_t)w, c = i % (size_t)w;
      if (memcmp(rv + i * es, a + (vi * (size_t)w + (size_t)w - 1 - c) * es, es))
        suite_fail("%s%d: swizzle .%s element %zu wrong", VT[t], w, rev, i);
    }
    for (size_t vi = 0; vi < n && !suite_failed(); vi++) {
      size_t e0, e1; /* which source components land in eo[2vi], eo[2vi+1] */
      if (w >= 4)
        continue;
      e0 = 0, e1 = w == 2 ? 1 : 2;
      if (memcmp(eo + 2 * vi * es, a + (vi * (size_t)w + e0) * es, es) || memcmp(eo + (2 * vi + 1) * es, a + (vi * (size_t)w + e1) * es, es))
        suite_fail("%s%d: component selection wrong at vector %zu", VT[t], w, vi);
    }
    if (w >= 4) /* .even halves at even offsets, .odd at odd offsets, each w/2 wide */
      for (size_t vi = 0; vi < n && !suite_failed(); vi++)
        for (int h = 0; h < w / 2; h++) {
          size_t half = (size_t)w / 2;
          const unsigned char *ev = eo + ((2 * vi) * half + (size_t)h) * es, *od = eo + ((2 * vi + 1) * half + (size_t)h) * es;
          if (memcmp(ev, a + (vi * (size_t)w + 2 * (size_t)h) * es, es) || memcmp(od, a + (vi * (size_t)w + 2 * (size_t)h + 1) * es, es)) {
            suite_fail("%s%d: .even/.odd wrong at vector %zu", VT[t], w, vi);
            break;
          }
        }
  }
  cl_mem all[] = {ma, mb, ms, mr, me, mi};
  for (int i = 0; i < 6; i++)
    if (all[i]) clReleaseMemObject(all[i]);
  free(a), free(b), free(sum), free(rv), free(eo);
  clReleaseKernel(k);
}

__attribute__((constructor)) static void register_vectors(void) {
  static char names[50][24];
  for (int t = 0; t < 10; t++)
    for (int i = 0; i < 5; i++) {
      snprintf(names[t * 5 + i], 24, "%s%d", VT[t], W[i]);
      suite_register("vectors", names[t * 5 + i], run_vec, (const void *)(intptr_t)(t * 5 + i));
    }
}
