/* Area atomics: every 32-bit (atomic_*) and 64-bit (atom_*, cl_khr_int64_{base,extended}_atomics)
 * atomic function on global and local memory. Each work-group works on its own counter; the
 * check is order-independent: the old values a group's work-items got back, plus the final
 * value, must be the same multiset as the initial value plus every op(old, v) -- the values form
 * one chain whatever order the operations took. Commutative operations also check the final
 * value against the host's fold. */
#include "suite.h"

#include <stdlib.h>
#include <string.h>

enum { A_INT, A_UINT, A_LONG, A_ULONG };
static const char *const AT[] = {"int", "uint", "long", "ulong"};
static const char *const OPS[] = {"add", "sub", "xchg", "inc", "dec", "cmpxchg", "min", "max", "and", "or", "xor"};
#define NUM_OPS 11
#define GROUPS 8
#define LOCAL 64

static uint64_t wrap(int t, uint64_t v) { return t < A_LONG ? (uint64_t)(uint32_t)v : v; }
static bool less(int t, uint64_t a, uint64_t b) {
  switch (t) {
  case A_INT: return (int32_t)a < (int32_t)b;
  case A_UINT: return (uint32_t)a < (uint32_t)b;
  case A_LONG: return (int64_t)a < (int64_t)b;
  default: return a < b;
  }
}
static uint64_t apply(int op, int t, uint64_t old, uint64_t v) {
  switch (op) {
  case 0: return wrap(t, old + v);
  case 1: return wrap(t, old - v);
  case 2: return v;
  case 3: return wrap(t, old + 1);
  case 4: return wrap(t, old - 1);
  case 5: return wrap(t, old + v); /* the kernel uses cmpxchg as a lock-free add */
  case 6: return less(t, v, old) ? v : old;
  case 7: return less(t, old, v) ? v : old;
  case 8: return old & v;
  case 9: return old | v;
  default: return old ^ v;
  }
}

static const char *call(int op, bool wide, char *buf, size_t size, const char *p, const char *cas) {
  const char *pre = wide ? "atom_" : "atomic_";
  if (op == 3 || op == 4)
    snprintf(buf, size, "%s%s(%s)", pre, OPS[op], p);
  else if (op == 5)
    snprintf(buf, size, "%s(%s, v[i])", cas, p);
  else
    snprintf(buf, size, "%s%s(%s, v[i])", pre, OPS[op], p);
  return buf;
}

static const char *space(bool local) { return local ? "local" : "global"; }

/* Every operation on every type in both address spaces: one program for the area (the 64-bit
 * ones only where the device has the int64 atomics). */
static suite_batch *batch(void) {
  static suite_batch *b;
  if (b)
    return b;
  /* the compare-and-swap helpers go in the prelude, which every part of a split build gets */
  char prelude[4096];
  size_t u = (size_t)snprintf(prelude, sizeof prelude, "%s",
                              S.int64_atomics ? "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable\n"
                                                "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable\n"
                                              : "");
  for (int t = 0; t < 4; t++)
    for (int local = 0; local < 2; local++)
      if (t < A_LONG || S.int64_atomics)
        u += (size_t)snprintf(prelude + u, sizeof prelude - u,
                              "%s cas_add_%s_%s(volatile %s %s *p, %s v) {\n  %s o;\n  do { o = *p; } while (%s(p, o, o + v) != o);\n  return o;\n}\n",
                              AT[t], AT[t], space(local), local ? "__local" : "__global", AT[t], AT[t], AT[t],
                              t >= A_LONG ? "atom_cmpxchg" : "atomic_cmpxchg");
  b = suite_batch_new(prelude, "");
  for (int t = 0; t < 4; t++)
    for (int local = 0; local < 2; local++) {
      bool wide = t >= A_LONG;
      if (wide && !S.int64_atomics)
        continue;
      char cas[48], name[64], c[128];
      snprintf(cas, sizeof cas, "cas_add_%s_%s", AT[t], space(local));
      for (int op = 0; op < NUM_OPS; op++) {
        snprintf(name, sizeof name, "k_%s_%s_%s", OPS[op], AT[t], space(local));
        if (local)
          suite_batch_add(b, name,
                          "__kernel void %s(__global %s *d, __global const %s *v, __global %s *old) {\n"
                          "  __local %s x;\n  size_t i = get_global_id(0), g = get_group_id(0);\n"
                          "  if (get_local_id(0) == 0) x = d[g];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  old[i] = %s;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                          "  if (get_local_id(0) == 0) d[g] = x;\n}\n",
                          name, AT[t], AT[t], AT[t], AT[t], call(op, wide, c, sizeof c, "&x", cas));
        else
          suite_batch_add(b, name,
                          "__kernel void %s(__global %s *d, __global const %s *v, __global %s *old) {\n"
                          "  size_t i = get_global_id(0), g = get_group_id(0);\n  old[i] = %s;\n}\n",
                          name, AT[t], AT[t], AT[t], call(op, wide, c, sizeof c, "&d[g]", cas));
      }
    }
  return b;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static uint64_t get(const void *p, size_t i, int t) {
  return t < A_LONG ? ((const uint32_t *)p)[i] : ((const uint64_t *)p)[i];
}

static void run_atomic(const void *arg) {
  int code = (int)(intptr_t)arg, op = code % NUM_OPS, t = (code / NUM_OPS) % 4;
  bool local = code / NUM_OPS / 4;
  if (t >= A_LONG && !S.int64_atomics) {
    suite_skip("no cl_khr_int64_base_atomics / extended_atomics");
    return;
  }
  char name[64];
  snprintf(name, sizeof name, "k_%s_%s_%s", OPS[op], AT[t], space(local));
  cl_kernel k = suite_batch_kernel(batch(), name);
  if (!k)
    return;
  size_t es = t < A_LONG ? 4 : 8, n = GROUPS * LOCAL;
  void *init = malloc(GROUPS * es), *vals = malloc(n * es), *fin = malloc(GROUPS * es), *old = malloc(n * es);
  suite_fill(init, GROUPS * es);
  suite_fill(vals, n * es);
  if (op == 8) /* and: mostly-set bits so the chain does not collapse to 0 at once */
    for (size_t i = 0; i < n * es; i++)
      ((unsigned char *)vals)[i] |= (unsigned char)(suite_rand() | suite_rand());
  cl_mem md = suite_buffer(GROUPS * es, init), mv = suite_buffer(n * es, vals), mo = suite_buffer(n * es, NULL);
  if (!suite_failed() && suite_args(k, 3, sizeof md, &md, sizeof mv, &mv, sizeof mo, &mo) && suite_run1(k, n, LOCAL) &&
      suite_read(md, fin, GROUPS * es) && suite_read(mo, old, n * es)) {
    uint64_t *a = malloc((LOCAL + 1) * 8), *b = malloc((LOCAL + 1) * 8);
    for (int g = 0; g < GROUPS && !suite_failed(); g++) {
      uint64_t start = get(init, (size_t)g, t), end = get(fin, (size_t)g, t), fold = start;
      for (int j = 0; j < LOCAL; j++) {
        size_t i = (size_t)g * LOCAL + (size_t)j;
        a[j] = get(old, i, t);
        b[j] = apply(op, t, a[j], get(vals, i, t));
        if (op != 2)
          fold = apply(op, t, fold, get(vals, i, t));
      }
      a[LOCAL] = end;
      b[LOCAL] = start;
      if (op != 2 && end != fold) {
        suite_fail("group %d: final value 0x%llx, expected 0x%llx", g, (unsigned long long)end, (unsigned long long)fold);
        break;
      }
      qsort(a, LOCAL + 1, 8, cmp_u64);
      qsort(b, LOCAL + 1, 8, cmp_u64);
      if (memcmp(a, b, (LOCAL + 1) * 8) != 0)
        suite_fail("group %d: the returned old values do not form one chain of %s operations", g, OPS[op]);
    }
    free(a);
    free(b);
  }
  if (md) clReleaseMemObject(md);
  if (mv) clReleaseMemObject(mv);
  if (mo) clReleaseMemObject(mo);
  clReleaseKernel(k);
  free(init), free(vals), free(fin), free(old);
}

__attribute__((constructor)) static void register_atomics(void) {
  static char names[2 * 4 * NUM_OPS][40];
  for (int local = 0; local < 2; local++)
    for (int t = 0; t < 4; t++)
      for (int op = 0; op < NUM_OPS; op++) {
        int code = (local * 4 + t) * NUM_OPS + op;
        snprintf(names[code], 40, "%s_%s_%s", OPS[op], AT[t], local ? "local" : "global");
        suite_register("atomics", names[code], run_atomic, (const void *)(intptr_t)code);
      }
}
