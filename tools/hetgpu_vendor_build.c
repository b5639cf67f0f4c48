/* hetgpu-vendor-build: builds OpenCL C with one vendor platform's own library, in a process of
 * its own, and writes the device's program binary (devices/vendor/vendor_build_child.h says
 * why and how). The driver starts it; it is not meant to be run by hand. */
#include <CL/cl_icd.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "devices/vendor/vendor_build_child.h"

#define VCL(handle) (*(const cl_icd_dispatch *const *)(handle))
#define CANNOT 1

static int fail(const char *what, cl_int err) {
  fprintf(stderr, "hetgpu-vendor-build: %s (%d)\n", what, err);
  return CANNOT;
}

static char *read_text(const char *dir, const char *name) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *text = malloc(cap + 1);
  for (size_t r; text && (r = fread(text + n, 1, cap - n, f)) > 0;)
    if ((n += r) == cap) {
      char *more = realloc(text, (cap *= 2) + 1);
      if (!more)
        free(text);
      text = more;
    }
  fclose(f);
  if (text)
    text[n] = '\0';
  return text;
}

static int write_binary(const char *dir, const unsigned char *bin, size_t size) {
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, HG_VENDOR_BUILD_BINARY);
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return -1;
  for (size_t done = 0; done < size;) {
    ssize_t w = write(fd, bin + done, size - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      close(fd);
      return -1;
    }
    done += (size_t)w;
  }
  return close(fd);
}

static bool parse_index(const char *s, cl_uint *out) {
  char *end;
  errno = 0;
  unsigned long v = strtoul(s, &end, 10);
  *out = (cl_uint)v;
  return *s && !*end && !errno && v < 4096;
}

/* The platform's device at index, which must be named name. */
static cl_device_id find_device(const char *library, cl_uint platform_index, cl_uint device_index, const char *name) {
  void *lib = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  void *(*get_ext)(const char *) = lib ? (void *(*)(const char *))dlsym(lib, "clGetExtensionFunctionAddress") : NULL;
  clIcdGetPlatformIDsKHR_fn get_ids = get_ext ? (clIcdGetPlatformIDsKHR_fn)get_ext("clIcdGetPlatformIDsKHR") : NULL;
  if (!get_ids && lib)
    get_ids = (clIcdGetPlatformIDsKHR_fn)dlsym(lib, "clIcdGetPlatformIDsKHR");
  cl_uint n = 0;
  if (!get_ids || get_ids(0, NULL, &n) != CL_SUCCESS || platform_index >= n) {
    fprintf(stderr, "hetgpu-vendor-build: no platform %u in %s%s%s\n", platform_index, library, lib ? "" : ": ",
            lib ? "" : dlerror());
    return NULL;
  }
  cl_platform_id *platforms = calloc(n, sizeof *platforms);
  cl_platform_id platform = platforms && get_ids(n, platforms, NULL) == CL_SUCCESS ? platforms[platform_index] : NULL;
  free(platforms);
  cl_device_id *devices = NULL;
  if (!platform || VCL(platform)->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, &n) != CL_SUCCESS ||
      device_index >= n || !(devices = calloc(n, sizeof *devices)) ||
      VCL(platform)->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, n, devices, NULL) != CL_SUCCESS) {
    free(devices);
    fprintf(stderr, "hetgpu-vendor-build: no device %u on platform %u of %s\n", device_index, platform_index, library);
    return NULL;
  }
  cl_device_id device = devices[device_index];
  free(devices);
  char found[256] = "";
  VCL(device)->clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof found - 1, found, NULL);
  if (strcmp(found, name)) {
    fprintf(stderr, "hetgpu-vendor-build: device %u is \"%s\", not \"%s\"\n", device_index, found, name);
    return NULL;
  }
  return device;
}

static void print_log(cl_program prog, cl_device_id device) {
  size_t size = 0;
  if (VCL(prog)->clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, 0, NULL, &size) != CL_SUCCESS || !size)
    return;
  char *log = malloc(size + 1);
  if (log && VCL(prog)->clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, size, log, NULL) == CL_SUCCESS) {
    log[size] = '\0';
    fputs(log, stderr);
  }
  free(log);
}

int main(int argc, char **argv) {
  cl_uint platform_index, device_index;
  if (argc != 6 || !parse_index(argv[2], &platform_index) || !parse_index(argv[3], &device_index)) {
    fprintf(stderr, "usage: %s LIBRARY PLATFORM_INDEX DEVICE_INDEX DEVICE_NAME DIR (started by the hetGPU driver)\n",
            argv[0]);
    return CANNOT;
  }
  const char *dir = argv[5];
  char *source = read_text(dir, HG_VENDOR_BUILD_SOURCE), *options = read_text(dir, HG_VENDOR_BUILD_OPTIONS);
  if (!source || !options)
    return fail("cannot read the source and options", 0);
  cl_device_id device = find_device(argv[1], platform_index, device_index, argv[4]);
  if (!device)
    return CANNOT;
  cl_int err = CL_SUCCESS;
  cl_context ctx = VCL(device)->clCreateContext(NULL, 1, &device, NULL, NULL, &err);
  if (!ctx)
    return fail("no context", err);
  const char *sources[1] = {source};
  cl_program prog = VCL(ctx)->clCreateProgramWithSource(ctx, 1, sources, NULL, &err);
  if (!prog)
    return fail("no program", err);
  err = VCL(prog)->clBuildProgram(prog, 1, &device, options, NULL, NULL);
  if (err != CL_SUCCESS) {
    print_log(prog, device);
    fprintf(stderr, "hetgpu-vendor-build: the vendor's build failed (%d)\n", err);
    return err == CL_BUILD_PROGRAM_FAILURE || err == CL_INVALID_BUILD_OPTIONS ? HG_VENDOR_BUILD_REFUSED : CANNOT;
  }
  size_t size = 0;
  unsigned char *bin = NULL;
  if (VCL(prog)->clGetProgramInfo(prog, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, NULL) != CL_SUCCESS || !size ||
      !(bin = malloc(size)) || VCL(prog)->clGetProgramInfo(prog, CL_PROGRAM_BINARIES, sizeof bin, &bin, NULL))
    return fail("no program binary", 0);
  /* loaded once as the driver will load it: a vendor that keeps the code it makes of a binary
   * in a cache of its own (NVIDIA's compute cache, keyed by the PTX) has it there for the driver */
  const unsigned char *bins[1] = {bin};
  cl_program again = VCL(ctx)->clCreateProgramWithBinary(ctx, 1, &device, &size, bins, NULL, &err);
  if (!again || VCL(again)->clBuildProgram(again, 1, &device, options, NULL, NULL) != CL_SUCCESS)
    return fail("the vendor does not load its own binary", err);
  if (write_binary(dir, bin, size) != 0)
    return fail("cannot write the binary", 0);
  /* nothing released or torn down: the process ends here, and a vendor's teardown only costs time */
  fflush(NULL);
  _exit(HG_VENDOR_BUILD_DONE);
}
