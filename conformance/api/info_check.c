#include "info_check.h"

#include <stdlib.h>
#include <string.h>

cl_int hg_platform_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return clGetPlatformInfo((cl_platform_id)obj, param, size, value, size_ret);
}
cl_int hg_device_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return clGetDeviceInfo((cl_device_id)obj, param, size, value, size_ret);
}
cl_int hg_context_info(const void *obj, cl_uint param, size_t size, void *value, size_t *size_ret) {
  return clGetContextInfo((cl_context)obj, param, size, value, size_ret);
}

bool hg_info_fetch(hg_info_fn fn, const void *obj, cl_uint param, const char *name, void **out, size_t *size) {
  size_t n = (size_t)-1;
  cl_int err = fn(obj, param, 0, NULL, &n);
  if (err != CL_SUCCESS || n == (size_t)-1) {
    hg_test_fail(__FILE__, __LINE__, "%s: size query returned %d", name, err);
    return false;
  }
  /* poisoned buffer with a guard byte past the end */
  unsigned char *buf = malloc(n + 1);
  memset(buf, 0xA5, n + 1);
  size_t n2 = (size_t)-1;
  err = fn(obj, param, n, n ? buf : NULL, &n2);
  if (err != CL_SUCCESS || n2 != n) {
    hg_test_fail(__FILE__, __LINE__, "%s: value query returned %d, size %zu (size query said %zu)", name, err, n2, n);
    free(buf);
    return false;
  }
  if (buf[n] != 0xA5) {
    hg_test_fail(__FILE__, __LINE__, "%s: wrote past the %zu bytes it reported", name, n);
    free(buf);
    return false;
  }
  if (n > 0) {
    unsigned char small[4096];
    if (n - 1 <= sizeof small) {
      err = fn(obj, param, n - 1, small, NULL);
      if (err != CL_INVALID_VALUE) {
        hg_test_fail(__FILE__, __LINE__, "%s: buffer one byte short returned %d, expected CL_INVALID_VALUE", name,
                     err);
        free(buf);
        return false;
      }
    }
  }
  /* a larger buffer is fine and reports the same size */
  unsigned char *big = malloc(n + 16);
  size_t n3 = 0;
  err = fn(obj, param, n + 16, big, &n3);
  free(big);
  if (err != CL_SUCCESS || n3 != n) {
    hg_test_fail(__FILE__, __LINE__, "%s: larger buffer returned %d size %zu", name, err, n3);
    free(buf);
    return false;
  }
  *out = buf;
  *size = n;
  return true;
}

char *hg_info_string(hg_info_fn fn, const void *obj, cl_uint param, const char *name, bool allow_empty) {
  void *v;
  size_t n;
  if (!hg_info_fetch(fn, obj, param, name, &v, &n))
    return NULL;
  char *s = v;
  if (n == 0 || s[n - 1] != '\0' || strlen(s) != n - 1) {
    hg_test_fail(__FILE__, __LINE__, "%s: not a string of %zu bytes with one terminating NUL", name, n);
    free(s);
    return NULL;
  }
  if (!allow_empty && n == 1) {
    hg_test_fail(__FILE__, __LINE__, "%s: empty", name);
    free(s);
    return NULL;
  }
  return s;
}

bool hg_word_in(const char *list, const char *word) {
  size_t len = strlen(word);
  for (const char *p = list; (p = strstr(p, word)); p += len) {
    bool starts = p == list || p[-1] == ' ';
    bool ends = p[len] == '\0' || p[len] == ' ';
    if (starts && ends)
      return true;
  }
  return false;
}

bool hg_name_in(const cl_name_version *arr, size_t n, const char *name) {
  for (size_t i = 0; i < n; i++)
    if (!strcmp(arr[i].name, name))
      return true;
  return false;
}

bool hg_names_match(const char *list, const cl_name_version *arr, size_t n) {
  size_t words = 0;
  const char *p = list;
  while (*p) {
    while (*p == ' ')
      p++;
    if (!*p)
      break;
    const char *e = p;
    while (*e && *e != ' ')
      e++;
    char word[CL_NAME_VERSION_MAX_NAME_SIZE + 1];
    size_t len = (size_t)(e - p);
    if (len >= sizeof word)
      return false;
    memcpy(word, p, len);
    word[len] = '\0';
    if (!hg_name_in(arr, n, word))
      return false;
    words++;
    p = e;
  }
  for (size_t i = 0; i < n; i++)
    if (!hg_word_in(list, arr[i].name))
      return false;
  return words == n;
}
