/* Field-by-field equality of two snapshots, for round-trip tests and the fuzzer. */
#include "snapshot/format.h"

#include <string.h>

/* NULL equals only NULL: the format keeps "no label" apart from an empty one. */
static bool str_eq(const char *a, const char *b) { return a == b || (a && b && strcmp(a, b) == 0); }
static bool bytes_eq(const uint8_t *a, const uint8_t *b, uint64_t n) {
  return n == 0 || a == b || (a && b && memcmp(a, b, n) == 0);
}

static bool buffer_eq(const hg_snap_buffer *a, const hg_snap_buffer *b) {
  return a->id == b->id && a->parent == b->parent && a->flags == b->flags && a->origin == b->origin &&
         a->size == b->size && str_eq(a->label, b->label) && !a->data == !b->data &&
         (!a->data || bytes_eq(a->data, b->data, a->size));
}

static bool program_eq(const hg_snap_program *a, const hg_snap_program *b) {
  return a->id == b->id && str_eq(a->label, b->label) && str_eq(a->build_options, b->build_options) &&
         a->ir_size == b->ir_size && bytes_eq(a->ir, b->ir, a->ir_size);
}

bool hg_snap_args_equal(uint32_t n, const hg_snap_kernel_arg *a, const hg_snap_kernel_arg *b) {
  for (uint32_t i = 0; i < n; i++) {
    const hg_snap_kernel_arg *x = &a[i], *y = &b[i];
    if (x->kind != y->kind || x->buffer != y->buffer || x->size != y->size || !x->value != !y->value ||
        (x->value && !bytes_eq(x->value, y->value, x->size)))
      return false;
  }
  return true;
}

static bool kernel_eq(const hg_snap_kernel *a, const hg_snap_kernel *b) {
  return a->id == b->id && a->program == b->program && str_eq(a->name, b->name) && str_eq(a->label, b->label) &&
         a->num_args == b->num_args && hg_snap_args_equal(a->num_args, a->args, b->args);
}

static bool image_eq(const hg_snap_image *a, const hg_snap_image *b) {
  return a->id == b->id && a->type == b->type && a->channel_order == b->channel_order &&
         a->channel_type == b->channel_type && a->flags == b->flags && a->width == b->width &&
         a->height == b->height && a->depth == b->depth && a->array_size == b->array_size &&
         a->row_pitch == b->row_pitch && a->slice_pitch == b->slice_pitch && a->buffer == b->buffer &&
         a->size == b->size && str_eq(a->label, b->label) && !a->data == !b->data &&
         (!a->data || bytes_eq(a->data, b->data, a->size));
}

static bool sampler_eq(const hg_snap_sampler *a, const hg_snap_sampler *b) {
  return a->id == b->id && a->bits == b->bits && a->num_properties == b->num_properties &&
         bytes_eq(a->properties, b->properties, 8ull * a->num_properties) && str_eq(a->label, b->label);
}

bool hg_snapshot_equal(const hg_snapshot *a, const hg_snapshot *b) {
  if (strcmp(a->source_backend, b->source_backend) != 0 || a->created_ns != b->created_ns ||
      a->num_buffers != b->num_buffers || a->num_programs != b->num_programs || a->num_kernels != b->num_kernels ||
      a->num_queues != b->num_queues || a->num_running != b->num_running || a->num_images != b->num_images ||
      a->num_samplers != b->num_samplers)
    return false;
  for (uint32_t i = 0; i < a->num_images; i++)
    if (!image_eq(&a->images[i], &b->images[i]))
      return false;
  for (uint32_t i = 0; i < a->num_samplers; i++)
    if (!sampler_eq(&a->samplers[i], &b->samplers[i]))
      return false;
  for (uint32_t i = 0; i < a->num_buffers; i++)
    if (!buffer_eq(&a->buffers[i], &b->buffers[i]))
      return false;
  for (uint32_t i = 0; i < a->num_programs; i++)
    if (!program_eq(&a->programs[i], &b->programs[i]))
      return false;
  for (uint32_t i = 0; i < a->num_kernels; i++)
    if (!kernel_eq(&a->kernels[i], &b->kernels[i]))
      return false;
  for (uint32_t i = 0; i < a->num_queues; i++)
    if (a->queues[i].id != b->queues[i].id || a->queues[i].properties != b->queues[i].properties ||
        !str_eq(a->queues[i].label, b->queues[i].label))
      return false;
  for (uint32_t i = 0; i < a->num_running; i++)
    if (!hg_snap_running_equal(&a->running[i], &b->running[i]))
      return false;
  return true;
}
