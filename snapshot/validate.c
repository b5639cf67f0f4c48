/* The meaning-level rules of a snapshot (docs/snapshot-format.md, "What a reader checks"),
 * one function for both sides: the writer refuses to write what the reader would refuse to
 * open, and the reader applies them after it has parsed the bytes. */
#include "snapshot/format.h"

#include "ir/ir.h"

#include <CL/cl.h>

#include <stdlib.h>
#include <string.h>

/* NULL allowed (labels); else shorter than HG_SNAP_MAX_STRING. Strings read from a file are
 * NUL-terminated by then (the parser checks). */
static bool string_ok(const char *s) { return !s || strnlen(s, HG_SNAP_MAX_STRING) < HG_SNAP_MAX_STRING; }

static bool check_buffers(const hg_snapshot *s, char *err, size_t n) {
  for (uint32_t i = 0; i < s->num_buffers; i++) {
    const hg_snap_buffer *b = &s->buffers[i];
    if (b->id != i)
      return hg_snap_errf(err, n, "buffer %u: id %u is not its index", i, b->id);
    if (!string_ok(b->label))
      return hg_snap_errf(err, n, "buffer %u: label too long", i);
    if (b->size == 0)
      return hg_snap_errf(err, n, "buffer %u: size 0", i);
    if (b->parent == HG_SNAP_NONE) {
      if (b->origin != 0)
        return hg_snap_errf(err, n, "buffer %u: a root buffer with origin %llu", i, (unsigned long long)b->origin);
      if (!b->data)
        return hg_snap_errf(err, n, "buffer %u: a root buffer without contents", i);
      continue;
    }
    if (b->parent >= i)
      return hg_snap_errf(err, n, "buffer %u: parent %u is not an earlier buffer", i, b->parent);
    const hg_snap_buffer *p = &s->buffers[b->parent];
    if (p->parent != HG_SNAP_NONE)
      return hg_snap_errf(err, n, "buffer %u: parent %u is itself a sub-buffer", i, b->parent);
    if (b->origin > p->size || b->size > p->size - b->origin)
      return hg_snap_errf(err, n, "buffer %u: origin %llu + size %llu beyond its parent's %llu bytes", i,
                          (unsigned long long)b->origin, (unsigned long long)b->size,
                          (unsigned long long)p->size);
    if (b->data)
      return hg_snap_errf(err, n, "buffer %u: a sub-buffer with contents of its own", i);
  }
  return true;
}

static bool check_queues(const hg_snapshot *s, char *err, size_t n) {
  for (uint32_t i = 0; i < s->num_queues; i++) {
    if (s->queues[i].id != i)
      return hg_snap_errf(err, n, "queue %u: id %u is not its index", i, s->queues[i].id);
    if (!string_ok(s->queues[i].label))
      return hg_snap_errf(err, n, "queue %u: label too long", i);
  }
  return true;
}

/* The cl_mem_object_type of an IR image dimension (ir.h: HG_IMAGE_1D ... HG_IMAGE_3D). */
static uint32_t image_type_of_dim(uint8_t dim) {
  static const uint32_t types[] = {0,
                                   CL_MEM_OBJECT_IMAGE1D,
                                   CL_MEM_OBJECT_IMAGE1D_BUFFER,
                                   CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                   CL_MEM_OBJECT_IMAGE2D,
                                   CL_MEM_OBJECT_IMAGE2D_ARRAY,
                                   CL_MEM_OBJECT_IMAGE3D};
  return dim < sizeof types / sizeof types[0] ? types[dim] : 0;
}

/* An image argument: an image's mem id, of the parameter's dimension, whose flags allow the
 * parameter's access (what clSetKernelArg checks). */
static bool check_image_arg(const hg_snapshot *s, const char *who, uint32_t a, const hg_snap_kernel_arg *arg,
                            const hg_ir_kernel_arg *want, const hg_ir_type *param, char *err, size_t n) {
  if (want->kind != HG_KARG_IMAGE)
    return hg_snap_errf(err, n, "%s arg %u: an image for a parameter that takes none", who, a);
  if (arg->buffer < s->num_buffers || arg->buffer - s->num_buffers >= s->num_images)
    return hg_snap_errf(err, n, "%s arg %u: mem %u is not an image", who, a, arg->buffer);
  const hg_snap_image *im = &s->images[arg->buffer - s->num_buffers];
  if (param->scalar != HG_IR_IMAGE || image_type_of_dim(param->addrspace) != im->type)
    return hg_snap_errf(err, n, "%s arg %u: image %u (type 0x%x) is not of the parameter's dimension", who, a,
                        arg->buffer, im->type);
  if ((want->access_qual == HG_IMAGE_READ_ONLY && (im->flags & CL_MEM_WRITE_ONLY)) ||
      (want->access_qual == HG_IMAGE_WRITE_ONLY && (im->flags & CL_MEM_READ_ONLY)))
    return hg_snap_errf(err, n, "%s arg %u: image %u's flags forbid the parameter's access", who, a, arg->buffer);
  if (arg->size || arg->value)
    return hg_snap_errf(err, n, "%s arg %u: fields its kind does not use are set", who, a);
  return true;
}

bool hg_snap_check_arg(const hg_snapshot *s, const char *who, uint32_t a, const hg_snap_kernel_arg *arg,
                       const hg_ir_kernel_arg *want, const hg_ir_type *param, char *err, size_t n) {
  bool is_ptr = want->kind == HG_KARG_GLOBAL_PTR || want->kind == HG_KARG_CONSTANT_PTR;
  switch (arg->kind) {
  case HG_SNAP_ARG_UNSET:
    if (arg->buffer == HG_SNAP_NONE && arg->size == 0 && !arg->value)
      return true;
    break;
  case HG_SNAP_ARG_BUFFER:
    if (!is_ptr)
      return hg_snap_errf(err, n, "%s arg %u: a buffer for a parameter that takes none", who, a);
    if (arg->buffer != HG_SNAP_NONE && arg->buffer >= s->num_buffers)
      return hg_snap_errf(err, n, "%s arg %u: buffer %u out of range", who, a, arg->buffer);
    if (arg->size == 0 && !arg->value)
      return true;
    break;
  case HG_SNAP_ARG_LOCAL:
    if (want->kind != HG_KARG_LOCAL_PTR)
      return hg_snap_errf(err, n, "%s arg %u: local memory for a non-__local parameter", who, a);
    if (arg->size == 0)
      return hg_snap_errf(err, n, "%s arg %u: local memory of 0 bytes", who, a);
    if (arg->buffer == HG_SNAP_NONE && !arg->value)
      return true;
    break;
  case HG_SNAP_ARG_VALUE:
    if (want->kind != HG_KARG_VALUE)
      return hg_snap_errf(err, n, "%s arg %u: a value for a parameter that is not by value", who, a);
    if (arg->size != want->size)
      return hg_snap_errf(err, n, "%s arg %u: %llu bytes for a %u-byte parameter", who, a,
                          (unsigned long long)arg->size, want->size);
    if (arg->buffer == HG_SNAP_NONE && arg->value)
      return true;
    break;
  case HG_SNAP_ARG_IMAGE:
    return check_image_arg(s, who, a, arg, want, param, err, n);
  case HG_SNAP_ARG_SAMPLER:
    if (want->kind != HG_KARG_SAMPLER)
      return hg_snap_errf(err, n, "%s arg %u: a sampler for a parameter that takes none", who, a);
    if (arg->buffer >= s->num_samplers)
      return hg_snap_errf(err, n, "%s arg %u: sampler %u out of range", who, a, arg->buffer);
    if (arg->size == 0 && !arg->value)
      return true;
    break;
  default:
    return hg_snap_errf(err, n, "%s arg %u: unknown kind %u", who, a, arg->kind);
  }
  return hg_snap_errf(err, n, "%s arg %u: fields its kind does not use are set", who, a);
}

static bool check_kernels(const hg_snapshot *s, hg_ir_module *const *mods, char *err, size_t n) {
  for (uint32_t i = 0; i < s->num_kernels; i++) {
    const hg_snap_kernel *k = &s->kernels[i];
    if (k->id != i)
      return hg_snap_errf(err, n, "kernel %u: id %u is not its index", i, k->id);
    if (k->program >= s->num_programs)
      return hg_snap_errf(err, n, "kernel %u: program %u out of range", i, k->program);
    if (!k->name || !k->name[0] || !string_ok(k->name) || !string_ok(k->label))
      return hg_snap_errf(err, n, "kernel %u: no name, or a name or label too long", i);
    const hg_ir_module *m = mods[k->program];
    uint32_t fi = hg_ir_find_function(m, k->name);
    if (fi == HG_IR_NONE || !m->functions[fi].is_kernel)
      return hg_snap_errf(err, n, "kernel %u: program %u has no kernel \"%s\"", i, k->program, k->name);
    const hg_ir_function *f = &m->functions[fi];
    if (k->num_args != f->num_params)
      return hg_snap_errf(err, n, "kernel %u (%s): %u arguments, the kernel takes %u", i, k->name, k->num_args,
                          f->num_params);
    if (k->num_args && !k->args)
      return hg_snap_errf(err, n, "kernel %u: no argument array", i);
    char who[32];
    snprintf(who, sizeof who, "kernel %u", i);
    for (uint32_t a = 0; a < k->num_args; a++)
      if (!hg_snap_check_arg(s, who, a, &k->args[a], &f->args[a], &f->param_types[a], err, n))
        return false;
  }
  return true;
}

bool hg_snap_validate(const hg_snapshot *s, char *err, size_t err_size) {
  if (strnlen(s->source_backend, sizeof s->source_backend) == sizeof s->source_backend)
    return hg_snap_errf(err, err_size, "source backend name not terminated");
  if ((s->num_buffers && !s->buffers) || (s->num_programs && !s->programs) || (s->num_kernels && !s->kernels) ||
      (s->num_queues && !s->queues) || (s->num_running && !s->running))
    return hg_snap_errf(err, err_size, "an object count without its array");
  if (!check_buffers(s, err, err_size) || !check_queues(s, err, err_size) || !hg_snap_check_images(s, err, err_size))
    return false;
  /* decode every program once; the kernels are checked against the decoded modules */
  hg_ir_module **mods = calloc(s->num_programs ? s->num_programs : 1, sizeof *mods);
  if (!mods)
    return hg_snap_errf(err, err_size, "out of memory");
  bool ok = true;
  for (uint32_t i = 0; ok && i < s->num_programs; i++) {
    const hg_snap_program *p = &s->programs[i];
    char ierr[256] = "";
    if (p->id != i)
      ok = hg_snap_errf(err, err_size, "program %u: id %u is not its index", i, p->id);
    else if (!p->build_options || !string_ok(p->build_options) || !string_ok(p->label))
      ok = hg_snap_errf(err, err_size, "program %u: build options NULL, or a string too long", i);
    else if (!(mods[i] = hg_ir_decode(p->ir, p->ir_size, ierr, sizeof ierr)))
      ok = hg_snap_errf(err, err_size, "program %u: %s", i, ierr);
    else if (mods[i]->program_kind != HG_IR_PROGRAM_EXECUTABLE)
      ok = hg_snap_errf(err, err_size, "program %u: IR is not an executable", i);
  }
  if (ok)
    ok = check_kernels(s, mods, err, err_size);
  if (ok)
    ok = hg_snap_check_running(s, mods, err, err_size);
  for (uint32_t i = 0; i < s->num_programs; i++)
    hg_ir_module_free(mods[i]);
  free(mods);
  return ok;
}
