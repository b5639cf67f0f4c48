/* Platform: clGetPlatformIDs and every clGetPlatformInfo query, the extension lists and their
 * consistency with the device's. */
#include <stdlib.h>
#include <string.h>

#include <CL/cl_ext.h>

#include "info_check.h"

HG_TEST(platform_ids) {
  cl_uint n = 0;
  CHECK_CL(clGetPlatformIDs(0, NULL, &n));
  CHECK(n >= 1);
  cl_platform_id *ids = calloc(n, sizeof *ids);
  CHECK_CL(clGetPlatformIDs(n, ids, NULL));
  bool found = false;
  for (cl_uint i = 0; i < n; i++)
    found |= ids[i] == hg_test_platform;
  free(ids);
  CHECK_MSG(found, "the platform under test is not among clGetPlatformIDs' answers");
  cl_platform_id p;
  CHECK_ERR(clGetPlatformIDs(0, &p, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetPlatformIDs(0, NULL, NULL), CL_INVALID_VALUE);
}

HG_TEST(platform_strings) {
  const struct {
    cl_platform_info param;
    const char *name;
  } strings[] = {
      {CL_PLATFORM_PROFILE, "CL_PLATFORM_PROFILE"},
      {CL_PLATFORM_VERSION, "CL_PLATFORM_VERSION"},
      {CL_PLATFORM_NAME, "CL_PLATFORM_NAME"},
      {CL_PLATFORM_VENDOR, "CL_PLATFORM_VENDOR"},
      {CL_PLATFORM_EXTENSIONS, "CL_PLATFORM_EXTENSIONS"},
      {CL_PLATFORM_ICD_SUFFIX_KHR, "CL_PLATFORM_ICD_SUFFIX_KHR"},
  };
  for (size_t i = 0; i < sizeof strings / sizeof strings[0]; i++) {
    char *s = hg_info_string(hg_platform_info, hg_test_platform, strings[i].param, strings[i].name, false);
    CHECK(s);
    free(s);
  }
  char *profile = hg_info_string(hg_platform_info, hg_test_platform, CL_PLATFORM_PROFILE, "profile", false);
  CHECK(profile);
  bool profile_ok = !strcmp(profile, "FULL_PROFILE") || !strcmp(profile, "EMBEDDED_PROFILE");
  free(profile);
  CHECK(profile_ok);

  /* "OpenCL<space><major.minor><space><platform-specific>" and the numeric version agree */
  char *version = hg_info_string(hg_platform_info, hg_test_platform, CL_PLATFORM_VERSION, "version", false);
  CHECK(version);
  int major = -1, minor = -1;
  int parsed = sscanf(version, "OpenCL %d.%d ", &major, &minor);
  bool has_space = strchr(version + 7, ' ') != NULL;
  free(version);
  CHECK_MSG(parsed == 2 && has_space, "CL_PLATFORM_VERSION not in the form 'OpenCL M.m text'");
  if (major >= 3) {
    cl_version v = 0;
    size_t n = 0;
    CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, &n));
    CHECK(n == sizeof(cl_version));
    CHECK(CL_VERSION_MAJOR(v) == (cl_uint)major && CL_VERSION_MINOR(v) == (cl_uint)minor);
  }
}

HG_TEST(platform_values) {
  void *v;
  size_t n;
  CHECK(hg_info_fetch(hg_platform_info, hg_test_platform, CL_PLATFORM_NUMERIC_VERSION, "NUMERIC_VERSION", &v, &n));
  free(v);
  CHECK(n == sizeof(cl_version));
  CHECK(hg_info_fetch(hg_platform_info, hg_test_platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, "HOST_TIMER_RESOLUTION",
                      &v, &n));
  cl_ulong resolution = *(cl_ulong *)v;
  free(v);
  CHECK(n == sizeof(cl_ulong));
  if (resolution) {
    cl_ulong t0 = 0, t1 = 0;
    CHECK_CL(clGetHostTimer(hg_test_device, &t0));
    CHECK_CL(clGetHostTimer(hg_test_device, &t1));
    CHECK(t1 >= t0);
  }
  CHECK(hg_info_fetch(hg_platform_info, hg_test_platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, "EXTENSIONS_WITH_VERSION",
                      &v, &n));
  free(v);
  CHECK(n % sizeof(cl_name_version) == 0);
}

HG_TEST(platform_invalid) {
  char buf[64];
  CHECK_ERR(clGetPlatformInfo(hg_test_platform, 0x0FFF, sizeof buf, buf, NULL), CL_INVALID_VALUE);
  CHECK_ERR(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_NAME, 1, buf, NULL), CL_INVALID_VALUE);
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("handle of the wrong type: hetGPU only");
    return;
  }
  /* a live object of another type, so the loader still dispatches to the driver */
  CHECK_ERR(clGetPlatformInfo((cl_platform_id)hg_test_device, CL_PLATFORM_NAME, sizeof buf, buf, NULL),
            CL_INVALID_PLATFORM);
  CHECK_ERR(clUnloadPlatformCompiler((cl_platform_id)hg_test_device), CL_INVALID_PLATFORM);
  CHECK_CL(clUnloadPlatformCompiler(hg_test_platform));
}

/* The string and the versioned list name the same extensions; the ICD is there; every
 * platform extension other than the ICD's is one of the device's. */
HG_TEST(platform_extensions_consistent) {
  char *exts = hg_info_string(hg_platform_info, hg_test_platform, CL_PLATFORM_EXTENSIONS, "extensions", false);
  CHECK(exts);
  void *v;
  size_t n;
  if (!hg_info_fetch(hg_platform_info, hg_test_platform, CL_PLATFORM_EXTENSIONS_WITH_VERSION, "with version", &v, &n)) {
    free(exts);
    return;
  }
  cl_name_version *list = v;
  size_t count = n / sizeof *list;
  bool same = hg_names_match(exts, list, count);
  bool icd = hg_word_in(exts, "cl_khr_icd");
  bool versions_set = true;
  for (size_t i = 0; i < count; i++)
    versions_set &= list[i].version != 0;
  char *dev_exts = hg_info_string(hg_device_info, hg_test_device, CL_DEVICE_EXTENSIONS, "device extensions", true);
  bool subset = dev_exts != NULL;
  for (size_t i = 0; dev_exts && i < count; i++)
    if (strcmp(list[i].name, "cl_khr_icd") && strncmp(list[i].name, "cl_pocl", 7))
      subset &= hg_word_in(dev_exts, list[i].name);
  bool equal_plus_icd = false;
  if (dev_exts) {
    /* hetGPU: the platform list is exactly cl_khr_icd followed by the device's */
    size_t len = strlen(dev_exts);
    equal_plus_icd = !strncmp(exts, "cl_khr_icd", 10) &&
                     (len ? exts[10] == ' ' && !strcmp(exts + 11, dev_exts) : exts[10] == '\0');
  }
  free(exts);
  free(v);
  free(dev_exts);
  CHECK_MSG(same, "CL_PLATFORM_EXTENSIONS and CL_PLATFORM_EXTENSIONS_WITH_VERSION differ");
  CHECK_MSG(icd, "cl_khr_icd missing");
  CHECK_MSG(versions_set, "an extension with version 0");
  CHECK_MSG(subset, "a platform extension that the device does not have");
  if (hg_test_is_hetgpu())
    CHECK_MSG(equal_plus_icd, "platform extensions are not cl_khr_icd + the device's");
}

HG_TEST(platform_identity_hetgpu) {
  if (!hg_test_is_hetgpu()) {
    hg_test_skip("hetGPU identity");
    return;
  }
  char buf[256];
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_NAME, sizeof buf, buf, NULL));
  CHECK(!strcmp(buf, "hetGPU"));
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_VENDOR, sizeof buf, buf, NULL));
  CHECK(!strcmp(buf, "hetGPU project"));
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_PROFILE, sizeof buf, buf, NULL));
  CHECK(!strcmp(buf, "FULL_PROFILE"));
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_ICD_SUFFIX_KHR, sizeof buf, buf, NULL));
  CHECK(!strcmp(buf, "HETGPU"));
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_VERSION, sizeof buf, buf, NULL));
  CHECK(!strncmp(buf, "OpenCL 3.0 hetGPU ", 18));
  cl_version v;
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_NUMERIC_VERSION, sizeof v, &v, NULL));
  CHECK(v == CL_MAKE_VERSION(3, 0, 0));
  cl_ulong resolution;
  CHECK_CL(clGetPlatformInfo(hg_test_platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof resolution, &resolution, NULL));
  CHECK(resolution == 1);
}
