/* The vendor backend: one hg_backend per device of every vendor platform the mini-loader finds.
 * Each owns one vendor context and two in-order command queues, one profiling and one not, that
 * together are the backend's stream (vendor_stream.c). A synchronous operation waits for its own
 * vendor event (not clFinish, so that operations from other threads do not delay it more than
 * the stream's order must); an asynchronous one hands its vendor event back as the completion
 * token (a launch that prints: its print, vendor_printf.c, whose wait writes the output). Both
 * go through the stream, which gives the order backend.h promises. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor.h"
#include "devices/vendor/vendor_internal.h"
#include "lowering/ptx.h"
#include "common/host_clock.h"
#include "common/log.h"
#include "common/profile_limits.h"

cl_int hg_vendor_error(cl_int e) {
  if (e >= 0)
    return e;
  /* After a faulting kernel NVIDIA's context runs nothing any more, and says so with -9999
   * (drivers before 580) or CL_INVALID_COMMAND_QUEUE (580: the kernel's status, then clFinish):
   * our queues and context are valid handles, so either means the device is lost */
  bool dead = e == CL_INVALID_COMMAND_QUEUE || e == CL_INVALID_CONTEXT;
  /* else the OpenCL 3.0 error codes: -1..-19 (runtime) and -30..-73 (API) */
  if (!dead && ((e <= -1 && e >= -19) || (e <= -30 && e >= -73)))
    return e;
  HG_LOG(HG_LOG_BACKEND, "vendor returned status %d: the device is lost", e);
  return HG_ERR_DEVICE_LOST;
}

/* Waits for ev and reports how its command ended; ev stays held. */
static cl_int wait_status(cl_event ev) {
  cl_int err = VCL(ev)->clWaitForEvents(1, &ev);
  cl_int status = CL_COMPLETE;
  cl_int info_err = VCL(ev)->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL);
  if (info_err == CL_SUCCESS && status < 0)
    return hg_vendor_error(status); /* the command failed: its status is the reason */
  if (err != CL_SUCCESS)
    return err == CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST ? CL_OUT_OF_RESOURCES : hg_vendor_error(err);
  if (info_err != CL_SUCCESS)
    return hg_vendor_error(info_err);
  return status == CL_COMPLETE ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
}

bool hg_vendor_event_done(cl_event ev) {
  cl_int status;
  return VCL(ev)->clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, NULL) != CL_SUCCESS ||
         status <= CL_COMPLETE; /* a failed query: the wait will say what went wrong */
}

cl_int hg_vendor_wait(cl_event ev) {
  cl_int err = wait_status(ev);
  VCL(ev)->clReleaseEvent(ev);
  return err;
}

cl_int hg_vendor_wait_timed(cl_event ev, uint64_t *device_ns) {
  cl_int err = wait_status(ev);
  cl_ulong start, end;
  *device_ns = err == CL_SUCCESS && hg_vendor_event_times(ev, &start, &end) && end >= start ? end - start : 0;
  VCL(ev)->clReleaseEvent(ev);
  return err;
}

cl_int hg_vendor_submitted(cl_command_queue queue, cl_int enqueue_err, cl_event ev, hg_token **token) {
  *token = NULL;
  if (enqueue_err != CL_SUCCESS)
    return hg_vendor_error(enqueue_err);
  /* Without a flush some vendors hold the command back until something waits on it, which
   * would leave the device idle while we submit the next one. */
  VCL(queue)->clFlush(queue);
  *token = (hg_token *)ev;
  return CL_SUCCESS;
}

static cl_int vendor_token_wait(hg_backend *be, hg_token *token, uint64_t *device_start, uint64_t *device_end) {
  hg_vendor_batch *batch = hg_vendor_token_batch(token);
  if (batch) { /* untimed: no times to give */
    if (device_start)
      *device_start = 0;
    if (device_end)
      *device_end = 0;
    return hg_vendor_batch_wait(hg_vendor_of(be), batch);
  }
  hg_vendor_print *print = hg_vendor_token_print(token);
  if (print)
    hg_vendor_print_flush(hg_vendor_of(be), print); /* the output is out before the launch completes */
  cl_event ev = print ? hg_vendor_print_event(print) : (cl_event)token;
  cl_int err = wait_status(ev);
  if (err == CL_SUCCESS && print)
    err = hg_vendor_print_fault(print); /* a robust kernel's access out of range fails it */
  cl_ulong start = 0, end = 0, seen = hg_host_clock_ns();
  if (err == CL_SUCCESS && (device_start || device_end) && hg_vendor_event_times(ev, &start, &end))
    hg_vendor_clock_to_host(hg_vendor_of(be), seen, &start, &end);
  if (device_start)
    *device_start = start;
  if (device_end)
    *device_end = end;
  return err;
}

static bool vendor_token_done(hg_backend *be, hg_token *token) {
  hg_vendor_batch *batch = hg_vendor_token_batch(token);
  if (batch)
    return hg_vendor_batch_done(hg_vendor_of(be), batch);
  hg_vendor_print *print = hg_vendor_token_print(token);
  return hg_vendor_event_done(print ? hg_vendor_print_event(print) : (cl_event)token);
}

static void vendor_token_release(hg_backend *be, hg_token *token) {
  hg_vendor_batch *batch = hg_vendor_token_batch(token);
  if (batch) {
    hg_vendor_batch_release(batch);
    return;
  }
  hg_vendor_print *print = hg_vendor_token_print(token);
  if (print) {
    hg_vendor_print_release(print);
    return;
  }
  cl_event ev = (cl_event)token;
  VCL(ev)->clReleaseEvent(ev);
}

static void vendor_destroy(hg_backend *be) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  hg_vendor_stops_free(vb);
  hg_vendor_samplers_free(vb);
  hg_vendor_stream_free(vb);
  if (vb->last_event)
    VCL(vb->last_event)->clReleaseEvent(vb->last_event);
  if (vb->plain_queue)
    VCL(vb->plain_queue)->clReleaseCommandQueue(vb->plain_queue);
  if (vb->alloc_queue)
    VCL(vb->alloc_queue)->clReleaseCommandQueue(vb->alloc_queue);
  if (vb->queue)
    VCL(vb->queue)->clReleaseCommandQueue(vb->queue);
  if (vb->context)
    VCL(vb->context)->clReleaseContext(vb->context);
  pthread_mutex_destroy(&vb->printf_list_lock);
  pthread_mutex_destroy(&vb->printf_print_lock);
  pthread_mutex_destroy(&vb->stream_lock);
  pthread_mutex_destroy(&vb->stops_lock);
  pthread_mutex_destroy(&vb->samplers_lock);
  free(vb);
}

static cl_int vendor_open(hg_backend *be);

static const hg_backend_ops vendor_ops = {
    .kind = "vendor",
    .destroy = vendor_destroy,
    .mem_alloc = hg_vendor_mem_alloc,
    .mem_alloc_at = hg_vendor_mem_alloc_at,
    .mem_free = hg_vendor_mem_free,
    .mem_read = hg_vendor_mem_read,
    .mem_write = hg_vendor_mem_write,
    .mem_copy = hg_vendor_mem_copy,
    .mem_fill = hg_vendor_mem_fill,
    .mem_read_rect = hg_vendor_mem_read_rect,
    .mem_write_rect = hg_vendor_mem_write_rect,
    .mem_copy_rect = hg_vendor_mem_copy_rect,
    .mem_host_map = hg_vendor_mem_host_map,
    .mem_host_address = hg_vendor_mem_host_address,
    .mem_host_begin = hg_vendor_mem_host_begin,
    .mem_host_end = hg_vendor_mem_host_end,
    .mem_host_unmap = hg_vendor_mem_host_unmap,
    .host_pinned_alloc = hg_vendor_host_pinned_alloc,
    .host_pinned_free = hg_vendor_host_pinned_free,
    .host_register = hg_vendor_host_register,
    .host_unregister = hg_vendor_host_unregister,
    .image_alloc = hg_vendor_image_alloc,
    .program_build = hg_vendor_program_build,
    .program_free = hg_vendor_program_free,
    .kernel_create = hg_vendor_kernel_create,
    .kernel_free = hg_vendor_kernel_free,
    .kernel_work_group_size = hg_vendor_kernel_work_group_size,
    .kernel_work_group_size_known = hg_vendor_kernel_work_group_size_known,
    .kernel_launch = hg_vendor_kernel_launch,
    .kernel_run = hg_vendor_kernel_run,
    .kernel_stop = hg_vendor_kernel_stop,
    .kernel_can_resume = hg_vendor_kernel_can_resume,
    .kernel_stoppable = hg_vendor_kernel_stoppable,
    .mem_read_async = hg_vendor_mem_read_async,
    .mem_write_async = hg_vendor_mem_write_async,
    .mem_copy_async = hg_vendor_mem_copy_async,
    .mem_fill_async = hg_vendor_mem_fill_async,
    .mem_read_rect_async = hg_vendor_mem_read_rect_async,
    .mem_write_rect_async = hg_vendor_mem_write_rect_async,
    .mem_copy_rect_async = hg_vendor_mem_copy_rect_async,
    .kernel_launch_async = hg_vendor_kernel_launch_async,
    .token_wait = vendor_token_wait,
    .token_done = vendor_token_done,
    .stream_flush = hg_vendor_stream_flush,
    .token_release = vendor_token_release,
    .open = vendor_open,
};

/* ---- probing ------------------------------------------------------------------------------ */

static cl_int device_info(cl_device_id dev, cl_device_info what, size_t size, void *value) {
  memset(value, 0, size);
  return VCL(dev)->clGetDeviceInfo(dev, what, size, value, NULL);
}

static void device_string(cl_device_id dev, cl_device_info what, char *out, size_t size) {
  out[0] = '\0';
  if (VCL(dev)->clGetDeviceInfo(dev, what, size - 1, out, NULL) != CL_SUCCESS)
    out[0] = '\0';
  out[size - 1] = '\0';
}

/* Every raw limit from the vendor; false (and the first failing query logged) if any fails. */
static bool read_limits(cl_device_id dev, hg_backend_limits *l) {
  cl_uint dims = 0;
  size_t sizes[16] = {0};
  cl_ulong fp64_config = 0;
  struct {
    cl_device_info what;
    size_t size;
    void *value;
    const char *name;
  } queries[] = {
      {CL_DEVICE_GLOBAL_MEM_SIZE, sizeof l->global_mem_size, &l->global_mem_size, "GLOBAL_MEM_SIZE"},
      {CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof l->max_mem_alloc_size, &l->max_mem_alloc_size, "MAX_MEM_ALLOC_SIZE"},
      {CL_DEVICE_LOCAL_MEM_SIZE, sizeof l->local_mem_size, &l->local_mem_size, "LOCAL_MEM_SIZE"},
      {CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof l->max_work_group_size, &l->max_work_group_size, "MAX_WORK_GROUP_SIZE"},
      {CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, sizeof dims, &dims, "MAX_WORK_ITEM_DIMENSIONS"},
      {CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof l->mem_base_addr_align_bits, &l->mem_base_addr_align_bits,
       "MEM_BASE_ADDR_ALIGN"},
      {CL_DEVICE_MAX_PARAMETER_SIZE, sizeof l->max_parameter_size, &l->max_parameter_size, "MAX_PARAMETER_SIZE"},
      {CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, sizeof l->max_constant_buffer_size, &l->max_constant_buffer_size,
       "MAX_CONSTANT_BUFFER_SIZE"},
      {CL_DEVICE_MAX_CONSTANT_ARGS, sizeof l->max_constant_args, &l->max_constant_args, "MAX_CONSTANT_ARGS"},
  };
  memset(l, 0, sizeof *l);
  for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
    cl_int err = device_info(dev, queries[i].what, queries[i].size, queries[i].value);
    if (err != CL_SUCCESS) {
      HG_LOG(HG_LOG_BACKEND, "vendor device: CL_DEVICE_%s failed (%d)", queries[i].name, err);
      return false;
    }
  }
  if (dims < 3 || dims > 16 || device_info(dev, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(size_t), sizes)) {
    HG_LOG(HG_LOG_BACKEND, "vendor device: CL_DEVICE_MAX_WORK_ITEM_SIZES unusable (%u dimensions)", dims);
    return false;
  }
  memcpy(l->max_work_item_sizes, sizes, sizeof l->max_work_item_sizes);
  /* a device without fp64 may reject the query (1.x) or answer 0: both mean no fp64 */
  if (device_info(dev, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof fp64_config, &fp64_config) != CL_SUCCESS)
    fp64_config = 0;
  l->fp64 = fp64_config != 0;
  return true;
}

/* The vendor's tuning hints. Unlike the limits they decide nothing: a query a vendor does not
 * answer (CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE is new in 3.0) keeps a neutral value. */
static void read_hints(cl_device_id dev, hg_backend_hints *h) {
  static const cl_device_info preferred[HG_VECTOR_TYPES] = {
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT,  CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG,
      CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE};
  static const cl_device_info native[HG_VECTOR_TYPES] = {
      CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_INT,  CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG,
      CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE};
  memset(h, 0, sizeof *h);
  if (device_info(dev, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof h->compute_units, &h->compute_units) || !h->compute_units)
    h->compute_units = 1;
  if (device_info(dev, CL_DEVICE_MAX_CLOCK_FREQUENCY, sizeof h->clock_mhz, &h->clock_mhz))
    h->clock_mhz = 0;
  if (device_info(dev, CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, sizeof h->work_group_size_multiple,
                  &h->work_group_size_multiple) ||
      !h->work_group_size_multiple || h->work_group_size_multiple > HG_PROFILE_MAX_WORK_GROUP_SIZE)
    h->work_group_size_multiple = 1;
  for (int t = 0; t < HG_VECTOR_TYPES; t++) {
    if (device_info(dev, preferred[t], sizeof(cl_uint), &h->preferred_vector_width[t]) ||
        !h->preferred_vector_width[t])
      h->preferred_vector_width[t] = 1;
    if (device_info(dev, native[t], sizeof(cl_uint), &h->native_vector_width[t]) || !h->native_vector_width[t])
      h->native_vector_width[t] = 1;
  }
  if (device_info(dev, CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof h->host_unified_memory, &h->host_unified_memory) ||
      h->host_unified_memory != CL_TRUE)
    h->host_unified_memory = CL_FALSE; /* deprecated in 2.0: a vendor may not answer */
  if (device_info(dev, CL_DEVICE_LOCAL_MEM_TYPE, sizeof h->local_mem_type, &h->local_mem_type) ||
      h->local_mem_type != CL_GLOBAL)
    h->local_mem_type = CL_LOCAL;
  if (device_info(dev, CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, sizeof h->cache_type, &h->cache_type) ||
      device_info(dev, CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, sizeof h->cache_line_size, &h->cache_line_size) ||
      device_info(dev, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, sizeof h->cache_size, &h->cache_size) ||
      (h->cache_type != CL_READ_ONLY_CACHE && h->cache_type != CL_READ_WRITE_CACHE)) {
    h->cache_type = CL_NONE;
    h->cache_line_size = 0;
    h->cache_size = 0;
  }
}

/* Whether the vendor takes the SPIR back end's bitcode (lowering/spir.h) as a program binary:
 * cl_khr_spir on a compiler built on this driver's LLVM or a newer one, which PoCL is (other
 * vendors' cl_khr_spir reads SPIR 1.2, LLVM 3.2's bitcode). HETGPU_SPIR=0: never. */
static bool takes_spir_bitcode(cl_device_id dev, const char *platform_name) {
  const char *setting = getenv("HETGPU_SPIR");
  if ((setting && !strcmp(setting, "0")) || !strstr(platform_name, "Portable Computing Language"))
    return false;
  char ext[8192];
  device_string(dev, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  return strstr(ext, "cl_khr_spir") != NULL;
}

/* Whether programs go to the vendor as the PTX back end's text (lowering/ptx.h): NVIDIA's
 * OpenCL on a GPU of compute capability HG_PTX_MIN_SM or newer (its
 * cl_nv_device_attribute_query says which), unless HETGPU_PTX=0 (docs/ptx-backend.md). */
static bool takes_ptx(cl_device_id dev, const char *platform_name) {
  const char *setting = getenv("HETGPU_PTX");
  if ((setting && !strcmp(setting, "0")) || strcmp(platform_name, "NVIDIA CUDA"))
    return false;
  char ext[8192];
  device_string(dev, CL_DEVICE_EXTENSIONS, ext, sizeof ext);
  cl_uint major = 0, minor = 0;
  enum { COMPUTE_CAPABILITY_MAJOR_NV = 0x4000, COMPUTE_CAPABILITY_MINOR_NV = 0x4001 };
  return strstr(ext, "cl_nv_device_attribute_query") &&
         !device_info(dev, COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major) &&
         !device_info(dev, COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor) && major * 10 + minor >= HG_PTX_MIN_SM;
}

/* An in-order vendor queue, profiling or not. */
static cl_command_queue create_queue(hg_vendor_backend *vb, bool profiling, cl_int *err) {
  const cl_icd_dispatch *d = VCL(vb->context);
  cl_command_queue_properties flags = profiling ? CL_QUEUE_PROFILING_ENABLE : 0;
  char version[64] = "";
  VCL(vb->device)->clGetDeviceInfo(vb->device, CL_DEVICE_VERSION, sizeof version - 1, version, NULL);
  bool cl2 = !strncmp(version, "OpenCL ", 7) && version[7] >= '2' && version[7] <= '9';
  if (cl2 && d->clCreateCommandQueueWithProperties) {
    cl_queue_properties props[] = {CL_QUEUE_PROPERTIES, flags, 0};
    return d->clCreateCommandQueueWithProperties(vb->context, vb->device, props, err);
  }
  return d->clCreateCommandQueue(vb->context, vb->device, flags, err);
}

/* A backend object without its vendor objects (vendor_open makes them). */
static hg_vendor_backend *new_backend(void) {
  hg_vendor_backend *vb = calloc(1, sizeof *vb);
  if (!vb)
    return NULL;
  vb->base.ops = &vendor_ops;
  pthread_mutex_init(&vb->printf_list_lock, NULL);
  pthread_mutex_init(&vb->printf_print_lock, NULL);
  pthread_mutex_init(&vb->stream_lock, NULL);
  pthread_mutex_init(&vb->stops_lock, NULL);
  pthread_mutex_init(&vb->samplers_lock, NULL);
  return vb;
}

/* The backend's names and what follows from them. */
static void name_backend(hg_vendor_backend *vb) {
  hg_backend *be = &vb->base;
  snprintf(be->name, sizeof be->name, "vendor:%.120s/%.120s", be->platform_name, be->device_name);
  /* PoCL's CPU devices run a work-group as loops on one thread, whatever the kernel: its
   * CL_KERNEL_WORK_GROUP_SIZE is the device's */
  vb->groups_at_device_max =
      (be->type & CL_DEVICE_TYPE_CPU) && strstr(be->platform_name, "Portable Computing Language");
}

/* The device's facts (names, type, raw limits but images), read from the vendor into d. */
static bool read_facts(cl_device_id device, const char *platform_name, hg_vendor_device_facts *d) {
  snprintf(d->platform_name, sizeof d->platform_name, "%s", platform_name);
  device_string(device, CL_DEVICE_NAME, d->device_name, sizeof d->device_name);
  char driver[128];
  device_string(device, CL_DRIVER_VERSION, driver, sizeof driver);
  snprintf(d->driver_version, sizeof d->driver_version, "%.60s %.60s", driver, d->device_name);
  return device_info(device, CL_DEVICE_TYPE, sizeof d->type, &d->type) == CL_SUCCESS && read_limits(device, &d->limits);
}

static void take_facts(hg_vendor_backend *vb, const hg_vendor_device_facts *d) {
  hg_backend *be = &vb->base;
  snprintf(be->platform_name, sizeof be->platform_name, "%s", d->platform_name);
  snprintf(be->device_name, sizeof be->device_name, "%s", d->device_name);
  snprintf(be->driver_version, sizeof be->driver_version, "%s", d->driver_version);
  be->type = d->type;
  be->limits = d->limits;
  name_backend(vb);
}

/* Whether a device's limits now keep what its facts promised: the memory sizes at least those
 * of the facts (a CPU vendor's follow the host's memory, which a virtual machine may grow while
 * it runs), everything else the same. */
static bool limits_keep_facts(const hg_backend_limits *now, const hg_backend_limits *facts) {
  return now->global_mem_size >= facts->global_mem_size && now->max_mem_alloc_size >= facts->max_mem_alloc_size &&
         now->local_mem_size == facts->local_mem_size && now->max_work_group_size == facts->max_work_group_size &&
         !memcmp(now->max_work_item_sizes, facts->max_work_item_sizes, sizeof now->max_work_item_sizes) &&
         now->mem_base_addr_align_bits == facts->mem_base_addr_align_bits &&
         now->max_parameter_size == facts->max_parameter_size &&
         now->max_constant_buffer_size == facts->max_constant_buffer_size && now->max_constant_args == facts->max_constant_args && now->fp64 == facts->fp64 && now->images == facts->images;
}

/* The vendor objects of a backend whose facts are known: context, queues, the clock, images,
 * hints, and how programs go to it. */
static cl_int start_backend(hg_vendor_backend *vb) {
  hg_backend *be = &vb->base;
  cl_int err;
  cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)vb->platform, 0};
  vb->context = VCL(vb->platform)->clCreateContext(props, 1, &vb->device, NULL, NULL, &err);
  if (!vb->context) {
    HG_LOG(HG_LOG_BACKEND, "%s: clCreateContext failed (%d)", be->name, err);
    return CL_DEVICE_NOT_AVAILABLE;
  }
  vb->queue = create_queue(vb, true, &err);
  if (!vb->queue) {
    HG_LOG(HG_LOG_BACKEND, "%s: creating the command queue failed (%d)", be->name, err);
    return CL_DEVICE_NOT_AVAILABLE;
  }
  /* without it every operation goes to the profiling queue, slower but right */
  vb->plain_queue = create_queue(vb, false, &err);
  vb->alloc_queue = create_queue(vb, false, &err);
  hg_vendor_clock_calibrate(vb);
  vb->images = hg_vendor_images_supported(vb);
  read_hints(vb->device, &be->hints);
  vb->spir = takes_spir_bitcode(vb->device, be->platform_name);
  vb->ptx = takes_ptx(vb->device, be->platform_name);
  return CL_SUCCESS;
}

/* The platform's name (into name) and its devices (malloc'd, *n of them); NULL with the
 * vendor's error in *err when it lists none. */
static cl_device_id *platform_devices(cl_platform_id platform, char name[128], cl_uint *n, cl_int *err) {
  name[0] = '\0';
  VCL(platform)->clGetPlatformInfo(platform, CL_PLATFORM_NAME, 127, name, NULL);
  name[127] = '\0';
  *n = 0;
  *err = VCL(platform)->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, NULL, n);
  cl_device_id *devices = *err == CL_SUCCESS && *n ? calloc(*n, sizeof *devices) : NULL;
  if (devices && (*err = VCL(platform)->clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, *n, devices, NULL)) != CL_SUCCESS) {
    free(devices);
    devices = NULL;
  }
  return devices;
}

/* The vendor's platform and device at the backend's place, found through its library (loaded
 * now if it is not yet), and the device's facts there; false when there is none. */
static bool find_device(unsigned library, unsigned platform_index, unsigned device_index, cl_platform_id *platform,
                        cl_device_id *device, hg_vendor_device_facts *d) {
  cl_platform_id platforms[32];
  unsigned n = hg_vendor_library_platforms(library, platforms, 32);
  if (platform_index >= n)
    return false;
  *platform = platforms[platform_index];
  char platform_name[128];
  cl_uint count;
  cl_int err;
  cl_device_id *devices = platform_devices(*platform, platform_name, &count, &err);
  bool found = devices && device_index < count;
  if (found)
    *device = devices[device_index];
  free(devices);
  return found && read_facts(*device, platform_name, d);
}

/* Opens a backend listed from the vendors' facts (its first use): loads the vendor, checks that
 * the device answers as the facts say and makes its objects. On any difference the facts are
 * forgotten (the next process loads every vendor) and the backend is not used. */
static cl_int vendor_open(hg_backend *be) {
  hg_vendor_backend *vb = hg_vendor_of(be);
  hg_vendor_device_facts now;
  memset(&now, 0, sizeof now);
  const char *differs = NULL;
  if (!find_device(vb->library, vb->platform_index, vb->device_index, &vb->platform, &vb->device, &now))
    differs = "the device is gone";
  else if (strcmp(now.platform_name, be->platform_name) || strcmp(now.device_name, be->device_name) ||
           strcmp(now.driver_version, be->driver_version) || now.type != be->type)
    differs = "another device";
  if (!differs) {
    now.limits.images = be->limits.images; /* known once its objects are made */
    if (!limits_keep_facts(&now.limits, &be->limits)) {
      differs = "other limits";
      HG_LOG(HG_LOG_BACKEND, "%s: memory %llu, largest allocation %llu (facts: %llu, %llu)", be->name,
             (unsigned long long)now.limits.global_mem_size, (unsigned long long)now.limits.max_mem_alloc_size,
             (unsigned long long)be->limits.global_mem_size, (unsigned long long)be->limits.max_mem_alloc_size);
    }
  }
  cl_int err = differs ? CL_DEVICE_NOT_AVAILABLE : start_backend(vb);
  if (!differs && err == CL_SUCCESS && vb->images != be->limits.images)
    differs = "other image support";
  if (differs) {
    HG_LOG(HG_LOG_BACKEND, "%s: %s than its cached facts; not used", be->name, differs);
    hg_vendor_facts_forget();
    err = CL_DEVICE_NOT_AVAILABLE;
  }
  HG_LOG(HG_LOG_BACKEND, "%s opened (%d)", be->name, err);
  return err;
}

/* Every device of every listed library, each loaded now, as live backends (at most max in
 * out); their facts are cached when every library loaded and every device started (a failure
 * that may pass, a busy GPU, must not leave its device out of later processes). */
static unsigned probe_live(hg_backend **out, unsigned max) {
  hg_vendor_facts *facts = calloc(1, sizeof *facts);
  bool complete = facts != NULL;
  unsigned count = 0;
  for (unsigned lib = 0; lib < hg_vendor_libraries() && count < max; lib++) {
    cl_platform_id platforms[32];
    unsigned num_platforms = hg_vendor_library_platforms(lib, platforms, 32);
    for (unsigned p = 0; p < num_platforms && count < max; p++) {
      cl_platform_id platform = platforms[p];
      char platform_name[128];
      cl_uint n;
      cl_int err;
      cl_device_id *devices = platform_devices(platform, platform_name, &n, &err);
      if (!devices) {
        HG_LOG(HG_LOG_BACKEND, "vendor platform \"%s\": no devices (%d)", platform_name, err);
        complete = false;
        continue;
      }
      for (cl_uint i = 0; i < n && count < max; i++) {
        hg_vendor_device_facts d = {.library = lib, .platform_index = p, .device_index = i};
        hg_vendor_backend *vb = new_backend();
        if (!vb) {
          complete = false;
          break;
        }
        vb->library = lib;
        vb->platform_index = p;
        vb->device_index = i;
        vb->platform = platform;
        vb->device = devices[i];
        bool ok = read_facts(devices[i], platform_name, &d);
        take_facts(vb, &d);
        if (!ok)
          HG_LOG(HG_LOG_BACKEND, "%s: device queries failed, not used", vb->base.name);
        if (!ok || start_backend(vb) != CL_SUCCESS) {
          vendor_destroy(&vb->base);
          complete = false;
          continue;
        }
        vb->base.limits.images = d.limits.images = vb->images;
        if (complete && facts->num_devices < HG_VENDOR_MAX_DEVICE_FACTS)
          facts->devices[facts->num_devices++] = d;
        HG_LOG(HG_LOG_BACKEND, "probed %s (driver %s)", vb->base.name, vb->base.driver_version);
        out[count++] = &vb->base;
      }
      free(devices);
    }
  }
  if (complete)
    hg_vendor_facts_store(facts);
  free(facts);
  return count;
}

unsigned hg_vendor_probe(hg_backend **out, unsigned max, bool from_facts) {
  hg_vendor_facts *facts = from_facts ? hg_vendor_facts_load() : NULL;
  if (!facts)
    return probe_live(out, max);
  unsigned count = 0;
  for (unsigned i = 0; i < facts->num_devices && count < max; i++) {
    hg_vendor_backend *vb = new_backend();
    if (!vb)
      break;
    const hg_vendor_device_facts *d = &facts->devices[i];
    vb->library = d->library;
    vb->platform_index = d->platform_index;
    vb->device_index = d->device_index;
    take_facts(vb, d);
    atomic_init(&vb->base.closed, true);
    HG_LOG(HG_LOG_BACKEND, "listed %s (driver %s) from its facts", vb->base.name, vb->base.driver_version);
    out[count++] = &vb->base;
  }
  free(facts);
  return count;
}
