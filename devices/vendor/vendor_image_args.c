/* Kernels' image and sampler arguments on the vendor backend (docs/images.md): an image
 * allocation is its vendor image; a 1D buffer image is its buffer's pixels from an offset, which
 * the vendor sees through a 1D buffer image made over the buffer (or a sub-buffer of it) at the
 * first launch and kept with the allocation; a sampler is a vendor sampler made once per value
 * of its bits. */
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

static bool same_format(const cl_image_format *a, const cl_image_format *b) {
  return a->image_channel_order == b->image_channel_order && a->image_channel_data_type == b->image_channel_data_type;
}

/* A vendor 1D buffer image of `width` pixels of `format` over `buffer` (from its start). */
static cl_mem make_view(hg_vendor_backend *vb, cl_mem buffer, const cl_image_format *format, size_t width,
                        cl_int *err) {
  cl_image_desc desc = {.image_type = CL_MEM_OBJECT_IMAGE1D_BUFFER, .image_width = width, .buffer = buffer};
  /* with the stream held, as sub-buffers are made (vendor_mem.c): nothing enqueued meanwhile */
  pthread_mutex_lock(&vb->stream_lock);
  cl_mem image = VCL(vb->context)->clCreateImage(vb->context, CL_MEM_READ_WRITE, format, &desc, NULL, err);
  pthread_mutex_unlock(&vb->stream_lock);
  if (!image)
    HG_LOG(HG_LOG_MEM, "%s: no 1D buffer image of %zu pixels (%d)", vb->base.name, width, *err);
  return image;
}

/* The cached view of m at offset for (format, width), made on the first launch that needs it. */
static cl_int cached_view(hg_vendor_backend *vb, hg_dev_mem *m, size_t offset, const hg_image_layout *l,
                          cl_mem *out) {
  cl_mem buffer;
  cl_int err = hg_vendor_mem_at(vb, m, offset, &buffer); /* takes subs_lock itself */
  if (err != CL_SUCCESS)
    return err;
  pthread_mutex_lock(&m->subs_lock);
  hg_vendor_view *v = m->views;
  while (v && !(v->offset == offset && v->width == l->width && same_format(&v->format, &l->format)))
    v = v->next;
  if (!v && (v = calloc(1, sizeof *v)) == NULL)
    err = CL_OUT_OF_HOST_MEMORY;
  else if (!v->image) {
    v->image = make_view(vb, buffer, &l->format, l->width, &err);
    if (v->image) {
      v->offset = offset;
      v->width = l->width;
      v->format = l->format;
      v->next = m->views;
      m->views = v;
    } else {
      free(v);
      v = NULL;
      err = hg_vendor_error(err);
    }
  }
  if (v)
    *out = v->image;
  pthread_mutex_unlock(&m->subs_lock);
  return err;
}

cl_int hg_vendor_image_arg(hg_vendor_backend *vb, const hg_launch_arg *a, cl_mem copy, cl_mem *out, cl_mem *made) {
  *out = NULL;
  *made = NULL;
  const hg_image_layout *l = a->image;
  hg_dev_mem *m = a->mem;
  if (!m || !l)
    return CL_INVALID_MEM_OBJECT;
  if (l->type != CL_MEM_OBJECT_IMAGE1D_BUFFER) {
    if (!m->is_image || m->layout.type != l->type || !same_format(&m->layout.format, &l->format))
      return CL_INVALID_MEM_OBJECT;
    *out = m->mem;
    return CL_SUCCESS;
  }
  size_t bytes = l->width * l->pixel_size;
  if (m->is_image || !bytes || a->offset > m->size || m->size - a->offset < bytes)
    return CL_INVALID_MEM_OBJECT;
  if (!copy)
    return cached_view(vb, m, a->offset, l, out);
  cl_int err = CL_SUCCESS; /* a shadow's copy of a misaligned range: a view for this launch only */
  *made = *out = make_view(vb, copy, &l->format, l->width, &err);
  return *out ? CL_SUCCESS : hg_vendor_error(err);
}

void hg_vendor_views_free(hg_dev_mem *m) {
  for (hg_vendor_view *v = m->views, *next; v; v = next) {
    next = v->next;
    VCL(v->image)->clReleaseMemObject(v->image);
    free(v);
  }
  m->views = NULL;
}

/* ---- samplers ---- */

cl_int hg_vendor_sampler(hg_vendor_backend *vb, uint32_t bits, cl_sampler *out) {
  *out = NULL;
  uint32_t addressing = bits & HG_SAMPLER_ADDRESS_MASK, filter = bits & (HG_SAMPLER_FILTER_NEAREST | HG_SAMPLER_FILTER_LINEAR);
  if (bits & ~HG_SAMPLER_VALID_BITS || addressing > HG_SAMPLER_ADDRESS_MIRRORED_REPEAT ||
      (filter != HG_SAMPLER_FILTER_NEAREST && filter != HG_SAMPLER_FILTER_LINEAR))
    return CL_INVALID_SAMPLER;
  static const cl_addressing_mode modes[] = {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP,
                                             CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT};
  cl_int err = CL_SUCCESS;
  pthread_mutex_lock(&vb->samplers_lock);
  cl_sampler s = vb->samplers[bits];
  if (!s) {
    cl_bool normalized = bits & HG_SAMPLER_NORMALIZED_COORDS ? CL_TRUE : CL_FALSE;
    s = VCL(vb->context)->clCreateSampler(vb->context, normalized, modes[addressing >> 1],
                                          filter == HG_SAMPLER_FILTER_LINEAR ? CL_FILTER_LINEAR : CL_FILTER_NEAREST,
                                          &err);
    vb->samplers[bits] = s;
  }
  pthread_mutex_unlock(&vb->samplers_lock);
  if (!s) {
    HG_LOG(HG_LOG_SCHED, "%s: no vendor sampler for bits 0x%x (%d)", vb->base.name, (unsigned)bits, err);
    return hg_vendor_error(err);
  }
  *out = s;
  return CL_SUCCESS;
}

void hg_vendor_samplers_free(hg_vendor_backend *vb) {
  for (size_t i = 0; i < sizeof vb->samplers / sizeof vb->samplers[0]; i++)
    if (vb->samplers[i])
      VCL(vb->samplers[i])->clReleaseSampler(vb->samplers[i]);
  memset(vb->samplers, 0, sizeof vb->samplers);
}
