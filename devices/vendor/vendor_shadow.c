/* Kernel arguments at offsets the vendor's sub-buffers cannot start at. The virtual device
 * promises sub-buffers at every multiple of HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS; a vendor whose
 * own alignment is coarser (NVIDIA: 4096 bits, where its kernels on a sub-buffer off that
 * alignment see stale data or fault) gets, for such an argument, a buffer of its own holding a
 * copy of the range: copied in before the launch and back after it, on the stream, so every
 * later operation sees the kernel's writes. The launch's own event stays the kernel's (its
 * profiled times are the kernel's); the stream's last event is the copy back. An argument
 * passed twice shares one copy; overlapping sub-buffers written by one launch are undefined
 * in OpenCL, as here. A 1D buffer image argument at such an offset gets the same copy, and a
 * vendor image over it made for the launch (kept here until the launch is enqueued). */
#include <stdlib.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

typedef struct shadow {
  hg_dev_mem *mem;
  size_t offset, size;
  cl_mem copy;
} shadow;

struct hg_vendor_shadows {
  const hg_vendor_backend *vb;
  cl_uint count;
  cl_uint num_views;
  cl_mem *views; /* images over copies (hg_vendor_shadow_keep), one slot per argument with a copy */
  shadow s[];
};

static bool buffer_image(const hg_launch_arg *a) {
  return a->kind == HG_ARG_IMAGE && a->image && a->image->type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
}

/* The bytes from the argument's offset it may touch, within its allocation. */
static size_t arg_bytes(const hg_launch_arg *a) {
  size_t rest = a->mem->size - a->offset;
  size_t touched = buffer_image(a) ? a->image->width * a->image->pixel_size : a->size;
  return touched && touched < rest ? touched : rest;
}

static bool needs_shadow(const hg_vendor_backend *vb, const hg_launch_arg *a) {
  if (!(a->kind == HG_ARG_BUFFER || buffer_image(a)) || !a->mem || a->mem->is_image || a->offset >= a->mem->size)
    return false;
  return a->offset % a->mem->sub_align || (buffer_image(a) && a->offset && !vb->image_views_of_sub_buffers);
}

void hg_vendor_shadows_free(hg_vendor_shadows *sh) {
  if (!sh)
    return;
  for (cl_uint i = 0; i < sh->num_views; i++) /* before the copies they view */
    VCL(sh->views[i])->clReleaseMemObject(sh->views[i]);
  for (cl_uint i = 0; i < sh->count; i++)
    if (sh->s[i].copy)
      VCL(sh->s[i].copy)->clReleaseMemObject(sh->s[i].copy); /* the vendor keeps it until its copies ran */
  free(sh->views);
  free(sh);
}

cl_int hg_vendor_shadows_make(hg_vendor_backend *vb, const hg_launch *l, hg_vendor_shadows **out) {
  *out = NULL;
  cl_uint wanted = 0;
  for (cl_uint i = 0; i < l->num_args; i++)
    wanted += needs_shadow(vb, &l->args[i]);
  if (!wanted)
    return CL_SUCCESS;
  hg_vendor_shadows *sh = calloc(1, sizeof *sh + wanted * sizeof(shadow));
  if (sh && !(sh->views = calloc(wanted, sizeof *sh->views))) {
    free(sh);
    sh = NULL;
  }
  if (!sh)
    return CL_OUT_OF_HOST_MEMORY;
  sh->vb = vb;
  for (cl_uint i = 0; i < l->num_args; i++) {
    const hg_launch_arg *a = &l->args[i];
    if (!needs_shadow(vb, a))
      continue;
    size_t bytes = arg_bytes(a);
    cl_uint j = 0;
    while (j < sh->count && !(sh->s[j].mem == a->mem && sh->s[j].offset == a->offset))
      j++;
    if (j == sh->count)
      sh->s[sh->count++] = (shadow){a->mem, a->offset, 0, NULL};
    if (bytes > sh->s[j].size)
      sh->s[j].size = bytes;
  }
  cl_int err = CL_SUCCESS;
  for (cl_uint j = 0; j < sh->count && err == CL_SUCCESS; j++)
    sh->s[j].copy = VCL(vb->context)->clCreateBuffer(vb->context, CL_MEM_READ_WRITE, sh->s[j].size, NULL, &err);
  if (err != CL_SUCCESS) {
    HG_LOG(HG_LOG_MEM, "%s: no buffer for a misaligned sub-buffer argument (%d)", vb->base.name, err);
    hg_vendor_shadows_free(sh);
    return err == CL_INVALID_BUFFER_SIZE ? CL_MEM_OBJECT_ALLOCATION_FAILURE : hg_vendor_error(err);
  }
  HG_LOG(HG_LOG_MEM, "%s: %u argument(s) at offsets off the vendor's alignment run on copies", vb->base.name,
         sh->count);
  *out = sh;
  return CL_SUCCESS;
}

cl_mem hg_vendor_shadow_of(const hg_vendor_shadows *sh, const hg_launch_arg *a) {
  if (!sh || !needs_shadow(sh->vb, a))
    return NULL;
  for (cl_uint j = 0; j < sh->count; j++)
    if (sh->s[j].mem == a->mem && sh->s[j].offset == a->offset)
      return sh->s[j].copy;
  return NULL;
}

void hg_vendor_shadow_keep(hg_vendor_shadows *sh, cl_mem view) { sh->views[sh->num_views++] = view; }

cl_int hg_vendor_shadows_copy_in(const hg_vendor_shadows *sh, const hg_vendor_slot *slot) {
  hg_vendor_slot after = *slot; /* the first copy waits for the stream's last event, the rest follow in order */
  for (cl_uint j = 0; j < sh->count; j++) {
    const shadow *s = &sh->s[j];
    cl_int err = VCL(slot->queue)->clEnqueueCopyBuffer(slot->queue, s->mem->mem, s->copy, s->offset, 0, s->size,
                                                       HG_VENDOR_WAIT(after), NULL);
    if (err != CL_SUCCESS)
      return err;
    after.num_wait = 0;
  }
  return CL_SUCCESS;
}

cl_int hg_vendor_shadows_copy_back(const hg_vendor_shadows *sh, cl_command_queue queue, cl_event *last) {
  *last = NULL; /* on failure: the last copy enqueued, if any */
  for (cl_uint j = 0; j < sh->count; j++) {
    const shadow *s = &sh->s[j];
    cl_event ev = NULL;
    cl_int err = VCL(queue)->clEnqueueCopyBuffer(queue, s->copy, s->mem->mem, 0, s->offset, s->size, 0, NULL, &ev);
    if (err != CL_SUCCESS)
      return err;
    if (*last)
      VCL(*last)->clReleaseEvent(*last);
    *last = ev;
  }
  return CL_SUCCESS;
}
