/* Shared helpers of the API tests: fetch a clGet*Info value with every size rule checked. */
#ifndef HETGPU_CONFORMANCE_API_INFO_CHECK_H
#define HETGPU_CONFORMANCE_API_INFO_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"

/* Any clGet*Info bound to one object. */
typedef cl_int (*hg_info_fn)(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret);

cl_int hg_platform_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret);
cl_int hg_device_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret);
cl_int hg_context_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret);

/* Fetches param into a fresh malloc'd buffer (*out, *size), checking that the size query and
 * the value query agree, that a buffer one byte short is refused with CL_INVALID_VALUE, and
 * that a poisoned buffer is fully written. Returns false and reports a failure otherwise. */
bool hg_info_fetch(hg_info_fn fn, const void *obj, cl_uint param, const char *name, void **out, size_t *size);

/* A string query: non-empty unless allow_empty, NUL-terminated exactly at size - 1. */
char *hg_info_string(hg_info_fn fn, const void *obj, cl_uint param, const char *name, bool allow_empty);

/* True when the space-separated list contains word exactly. */
bool hg_word_in(const char *list, const char *word);
/* True when the space-separated words of list equal the names of the array (any order). */
bool hg_names_match(const char *list, const cl_name_version *arr, size_t n);
bool hg_name_in(const cl_name_version *arr, size_t n, const char *name);

#endif
