/* The table of OpenCL C 1.2 builtin names (OpenCL C specification 1.2, section 6.12) and the
 * name patterns of the families whose names carry types (convert_, as_, vload/vstore). */
#include "lowering/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct named_family {
  const char *name;
  hg_builtin_family family;
} named_family;

static const named_family k_builtins[] = {
    /* 6.12.1 work-item functions */
    {"get_work_dim", HG_BF_WORK_ITEM}, {"get_global_size", HG_BF_WORK_ITEM},
    {"get_global_id", HG_BF_WORK_ITEM}, {"get_local_size", HG_BF_WORK_ITEM},
    {"get_enqueued_local_size", HG_BF_WORK_ITEM}, {"get_local_id", HG_BF_WORK_ITEM},
    {"get_num_groups", HG_BF_WORK_ITEM}, {"get_group_id", HG_BF_WORK_ITEM},
    {"get_global_offset", HG_BF_WORK_ITEM}, {"get_global_linear_id", HG_BF_WORK_ITEM},
    {"get_local_linear_id", HG_BF_WORK_ITEM},
    /* 6.12.2 math functions */
    {"acos", HG_BF_MATH}, {"acosh", HG_BF_MATH}, {"acospi", HG_BF_MATH}, {"asin", HG_BF_MATH},
    {"asinh", HG_BF_MATH}, {"asinpi", HG_BF_MATH}, {"atan", HG_BF_MATH}, {"atan2", HG_BF_MATH},
    {"atanh", HG_BF_MATH}, {"atanpi", HG_BF_MATH}, {"atan2pi", HG_BF_MATH}, {"cbrt", HG_BF_MATH},
    {"ceil", HG_BF_MATH}, {"copysign", HG_BF_MATH}, {"cos", HG_BF_MATH}, {"cosh", HG_BF_MATH},
    {"cospi", HG_BF_MATH}, {"erfc", HG_BF_MATH}, {"erf", HG_BF_MATH}, {"exp", HG_BF_MATH},
    {"exp2", HG_BF_MATH}, {"exp10", HG_BF_MATH}, {"expm1", HG_BF_MATH}, {"fabs", HG_BF_MATH},
    {"fdim", HG_BF_MATH}, {"floor", HG_BF_MATH}, {"fma", HG_BF_MATH}, {"fmax", HG_BF_MATH},
    {"fmin", HG_BF_MATH}, {"fmod", HG_BF_MATH}, {"fract", HG_BF_MATH}, {"frexp", HG_BF_MATH},
    {"hypot", HG_BF_MATH}, {"ilogb", HG_BF_MATH}, {"ldexp", HG_BF_MATH}, {"lgamma", HG_BF_MATH},
    {"lgamma_r", HG_BF_MATH}, {"log", HG_BF_MATH}, {"log2", HG_BF_MATH}, {"log10", HG_BF_MATH},
    {"log1p", HG_BF_MATH}, {"logb", HG_BF_MATH}, {"mad", HG_BF_MATH}, {"maxmag", HG_BF_MATH},
    {"minmag", HG_BF_MATH}, {"modf", HG_BF_MATH}, {"nan", HG_BF_MATH}, {"nextafter", HG_BF_MATH},
    {"pow", HG_BF_MATH}, {"pown", HG_BF_MATH}, {"powr", HG_BF_MATH}, {"remainder", HG_BF_MATH},
    {"remquo", HG_BF_MATH}, {"rint", HG_BF_MATH}, {"rootn", HG_BF_MATH}, {"round", HG_BF_MATH},
    {"rsqrt", HG_BF_MATH}, {"sin", HG_BF_MATH}, {"sincos", HG_BF_MATH}, {"sinh", HG_BF_MATH},
    {"sinpi", HG_BF_MATH}, {"sqrt", HG_BF_MATH}, {"tan", HG_BF_MATH}, {"tanh", HG_BF_MATH},
    {"tanpi", HG_BF_MATH}, {"tgamma", HG_BF_MATH}, {"trunc", HG_BF_MATH},
    {"half_cos", HG_BF_MATH}, {"half_divide", HG_BF_MATH}, {"half_exp", HG_BF_MATH},
    {"half_exp2", HG_BF_MATH}, {"half_exp10", HG_BF_MATH}, {"half_log", HG_BF_MATH},
    {"half_log2", HG_BF_MATH}, {"half_log10", HG_BF_MATH}, {"half_powr", HG_BF_MATH},
    {"half_recip", HG_BF_MATH}, {"half_rsqrt", HG_BF_MATH}, {"half_sin", HG_BF_MATH},
    {"half_sqrt", HG_BF_MATH}, {"half_tan", HG_BF_MATH},
    {"native_cos", HG_BF_MATH}, {"native_divide", HG_BF_MATH}, {"native_exp", HG_BF_MATH},
    {"native_exp2", HG_BF_MATH}, {"native_exp10", HG_BF_MATH}, {"native_log", HG_BF_MATH},
    {"native_log2", HG_BF_MATH}, {"native_log10", HG_BF_MATH}, {"native_powr", HG_BF_MATH},
    {"native_recip", HG_BF_MATH}, {"native_rsqrt", HG_BF_MATH}, {"native_sin", HG_BF_MATH},
    {"native_sqrt", HG_BF_MATH}, {"native_tan", HG_BF_MATH},
    /* 6.12.3 integer functions */
    {"abs", HG_BF_INTEGER}, {"abs_diff", HG_BF_INTEGER}, {"add_sat", HG_BF_INTEGER},
    {"hadd", HG_BF_INTEGER}, {"rhadd", HG_BF_INTEGER}, {"clamp", HG_BF_COMMON},
    {"clz", HG_BF_INTEGER}, {"ctz", HG_BF_INTEGER}, {"mad_hi", HG_BF_INTEGER},
    {"mad_sat", HG_BF_INTEGER}, {"max", HG_BF_COMMON}, {"min", HG_BF_COMMON},
    {"mul_hi", HG_BF_INTEGER}, {"rotate", HG_BF_INTEGER}, {"sub_sat", HG_BF_INTEGER},
    {"upsample", HG_BF_INTEGER}, {"popcount", HG_BF_INTEGER}, {"mad24", HG_BF_INTEGER},
    {"mul24", HG_BF_INTEGER},
    /* 6.12.4 common functions */
    {"degrees", HG_BF_COMMON}, {"mix", HG_BF_COMMON}, {"radians", HG_BF_COMMON},
    {"step", HG_BF_COMMON}, {"smoothstep", HG_BF_COMMON}, {"sign", HG_BF_COMMON},
    /* 6.12.5 geometric functions */
    {"cross", HG_BF_GEOMETRIC}, {"dot", HG_BF_GEOMETRIC}, {"distance", HG_BF_GEOMETRIC},
    {"length", HG_BF_GEOMETRIC}, {"normalize", HG_BF_GEOMETRIC},
    {"fast_distance", HG_BF_GEOMETRIC}, {"fast_length", HG_BF_GEOMETRIC},
    {"fast_normalize", HG_BF_GEOMETRIC},
    /* 6.12.6 relational functions */
    {"isequal", HG_BF_RELATIONAL}, {"isnotequal", HG_BF_RELATIONAL},
    {"isgreater", HG_BF_RELATIONAL}, {"isgreaterequal", HG_BF_RELATIONAL},
    {"isless", HG_BF_RELATIONAL}, {"islessequal", HG_BF_RELATIONAL},
    {"islessgreater", HG_BF_RELATIONAL}, {"isfinite", HG_BF_RELATIONAL},
    {"isinf", HG_BF_RELATIONAL}, {"isnan", HG_BF_RELATIONAL}, {"isnormal", HG_BF_RELATIONAL},
    {"isordered", HG_BF_RELATIONAL}, {"isunordered", HG_BF_RELATIONAL},
    {"signbit", HG_BF_RELATIONAL}, {"any", HG_BF_RELATIONAL}, {"all", HG_BF_RELATIONAL},
    {"bitselect", HG_BF_RELATIONAL}, {"select", HG_BF_RELATIONAL},
    /* 6.12.7 vector data load and store (the sized forms are matched by pattern) */
    {"vload_half", HG_BF_VECTOR_DATA}, {"vstore_half", HG_BF_VECTOR_DATA},
    {"shuffle", HG_BF_VECTOR_DATA}, {"shuffle2", HG_BF_VECTOR_DATA},
    /* 6.12.8 synchronization, 6.12.9 explicit memory fence */
    {"barrier", HG_BF_SYNC}, {"work_group_barrier", HG_BF_SYNC}, {"mem_fence", HG_BF_SYNC},
    {"read_mem_fence", HG_BF_SYNC}, {"write_mem_fence", HG_BF_SYNC},
    {"atomic_work_item_fence", HG_BF_SYNC},
    /* 6.12.10 async copies and prefetch */
    {"async_work_group_copy", HG_BF_ASYNC_COPY}, {"async_work_group_strided_copy", HG_BF_ASYNC_COPY},
    {"wait_group_events", HG_BF_ASYNC_COPY}, {"prefetch", HG_BF_ASYNC_COPY},
    /* 6.12.11 atomics (32-bit), cl_khr_*_atomics (atom_*), cl_khr_int64_*_atomics, and the
     * C11-style functions of OpenCL C 2.0/3.0 */
    {"atomic_add", HG_BF_ATOMIC}, {"atomic_sub", HG_BF_ATOMIC}, {"atomic_xchg", HG_BF_ATOMIC},
    {"atomic_inc", HG_BF_ATOMIC}, {"atomic_dec", HG_BF_ATOMIC}, {"atomic_cmpxchg", HG_BF_ATOMIC},
    {"atomic_min", HG_BF_ATOMIC}, {"atomic_max", HG_BF_ATOMIC}, {"atomic_and", HG_BF_ATOMIC},
    {"atomic_or", HG_BF_ATOMIC}, {"atomic_xor", HG_BF_ATOMIC},
    {"atom_add", HG_BF_ATOMIC}, {"atom_sub", HG_BF_ATOMIC}, {"atom_xchg", HG_BF_ATOMIC},
    {"atom_inc", HG_BF_ATOMIC}, {"atom_dec", HG_BF_ATOMIC}, {"atom_cmpxchg", HG_BF_ATOMIC},
    {"atom_min", HG_BF_ATOMIC}, {"atom_max", HG_BF_ATOMIC}, {"atom_and", HG_BF_ATOMIC},
    {"atom_or", HG_BF_ATOMIC}, {"atom_xor", HG_BF_ATOMIC},
    {"atomic_init", HG_BF_ATOMIC}, {"atomic_store", HG_BF_ATOMIC},
    {"atomic_store_explicit", HG_BF_ATOMIC}, {"atomic_load", HG_BF_ATOMIC},
    {"atomic_load_explicit", HG_BF_ATOMIC}, {"atomic_exchange", HG_BF_ATOMIC},
    {"atomic_exchange_explicit", HG_BF_ATOMIC},
    {"atomic_compare_exchange_strong", HG_BF_ATOMIC},
    {"atomic_compare_exchange_strong_explicit", HG_BF_ATOMIC},
    {"atomic_compare_exchange_weak", HG_BF_ATOMIC},
    {"atomic_compare_exchange_weak_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_add", HG_BF_ATOMIC}, {"atomic_fetch_add_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_sub", HG_BF_ATOMIC}, {"atomic_fetch_sub_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_or", HG_BF_ATOMIC}, {"atomic_fetch_or_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_xor", HG_BF_ATOMIC}, {"atomic_fetch_xor_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_and", HG_BF_ATOMIC}, {"atomic_fetch_and_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_min", HG_BF_ATOMIC}, {"atomic_fetch_min_explicit", HG_BF_ATOMIC},
    {"atomic_fetch_max", HG_BF_ATOMIC}, {"atomic_fetch_max_explicit", HG_BF_ATOMIC},
    {"atomic_flag_test_and_set", HG_BF_ATOMIC},
    {"atomic_flag_test_and_set_explicit", HG_BF_ATOMIC}, {"atomic_flag_clear", HG_BF_ATOMIC},
    {"atomic_flag_clear_explicit", HG_BF_ATOMIC},
    /* 6.12.13 printf */
    {"printf", HG_BF_PRINTF},
};

static const char *const k_scalar_types[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                             "long", "ulong", "float", "double", "half"};

/* "float4" -> true for a scalar type name optionally followed by 2, 3, 4, 8 or 16. */
static bool is_type_name(const char *s, size_t len, bool allow_half) {
  for (size_t i = 0; i < sizeof k_scalar_types / sizeof *k_scalar_types; i++) {
    size_t n = strlen(k_scalar_types[i]);
    if (len < n || strncmp(s, k_scalar_types[i], n) != 0) continue;
    if (!allow_half && strcmp(k_scalar_types[i], "half") == 0) continue;
    const char *rest = s + n;
    size_t rest_len = len - n;
    if (rest_len == 0) return true;
    if ((rest_len == 1 && strchr("234", rest[0]) && rest[0]) || (rest_len == 1 && rest[0] == '8') ||
        (rest_len == 2 && rest[0] == '1' && rest[1] == '6'))
      return true;
  }
  return false;
}

static bool is_width_suffix(const char *s) {
  return *s == 0 || !strcmp(s, "2") || !strcmp(s, "3") || !strcmp(s, "4") || !strcmp(s, "8") ||
         !strcmp(s, "16");
}

static bool is_rounding_suffix(const char *s) {
  return *s == 0 || !strcmp(s, "_rte") || !strcmp(s, "_rtz") || !strcmp(s, "_rtp") || !strcmp(s, "_rtn");
}

bool hg_builtin_parse_convert(const char *name, char *dst_type, unsigned dst_size, bool *sat, char *rounding) {
  if (strncmp(name, "convert_", 8) != 0) return false;
  const char *t = name + 8;
  size_t len = strcspn(t, "_");
  if (!is_type_name(t, len, false)) return false;
  const char *rest = t + len;
  bool s = false;
  if (strncmp(rest, "_sat", 4) == 0) {
    s = true;
    rest += 4;
  }
  if (!is_rounding_suffix(rest)) return false;
  if (dst_type) {
    if (len + 1 > dst_size) return false;
    memcpy(dst_type, t, len);
    dst_type[len] = 0;
  }
  if (sat) *sat = s;
  if (rounding) *rounding = *rest ? rest[3] : 0;
  return true;
}

/* vloadN, vstoreN, vload_halfN, vloada_halfN, vstore_halfN[_rte..], vstorea_halfN[_rte..]. */
static bool is_vector_data_name(const char *name) {
  const char *rest;
  if (!strncmp(name, "vloada_half", 11)) return is_width_suffix(name + 11) && name[11];
  if (!strncmp(name, "vload_half", 10)) return is_width_suffix(name + 10);
  if (!strncmp(name, "vload", 5)) return is_width_suffix(name + 5) && name[5];
  if (!strncmp(name, "vstorea_half", 12)) rest = name + 12;
  else if (!strncmp(name, "vstore_half", 11)) rest = name + 11;
  else if (!strncmp(name, "vstore", 6)) return is_width_suffix(name + 6) && name[6];
  else return false;
  char width[4] = {0};
  size_t n = strcspn(rest, "_");
  if (n > 2) return false;
  memcpy(width, rest, n);
  if (!is_width_suffix(width)) return false;
  if (name[6] == 'a' && n == 0) return false; /* vstorea_half needs a width */
  return is_rounding_suffix(rest + n);
}

hg_builtin_family hg_builtin_family_of(const char *name) {
  if (!name) return HG_BF_UNKNOWN;
  for (size_t i = 0; i < sizeof k_builtins / sizeof *k_builtins; i++)
    if (strcmp(k_builtins[i].name, name) == 0) return k_builtins[i].family;
  if (hg_builtin_parse_convert(name, NULL, 0, NULL, NULL)) return HG_BF_CONVERT;
  if (!strncmp(name, "as_", 3) && is_type_name(name + 3, strlen(name + 3), true)) return HG_BF_REINTERPRET;
  if (is_vector_data_name(name)) return HG_BF_VECTOR_DATA;
  return HG_BF_UNKNOWN;
}
