/* Kernel metadata: argument names, types and qualifiers from clang's !kernel_arg_* nodes
 * (image and sampler arguments typed from them: docs/images.md),
 * reqd_work_group_size, work_group_size_hint and vec_type_hint, and the CL_KERNEL_ATTRIBUTES
 * text built from them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/llvm_translate.h"

/* The operands of one of the function's metadata nodes, as values; NULL when absent. */
static LLVMValueRef *md_operands(hg_xlate *x, LLVMValueRef fn, const char *kind, unsigned *count) {
  unsigned kind_id = LLVMGetMDKindIDInContext(x->ctx, kind, (unsigned)strlen(kind));
  size_t n = 0;
  LLVMValueMetadataEntry *entries = LLVMGlobalCopyAllMetadata(fn, &n);
  LLVMValueRef *ops = NULL;
  for (size_t i = 0; i < n; i++) {
    if (LLVMValueMetadataEntriesGetKind(entries, (unsigned)i) != kind_id) continue;
    LLVMValueRef node = LLVMMetadataAsValue(x->ctx, LLVMValueMetadataEntriesGetMetadata(entries, (unsigned)i));
    *count = LLVMGetMDNodeNumOperands(node);
    ops = calloc(*count + 1, sizeof *ops);
    if (!ops) abort();
    LLVMGetMDNodeOperands(node, ops);
    break;
  }
  if (entries) LLVMDisposeValueMetadataEntries(entries);
  return ops;
}

static char *md_string(LLVMValueRef v) {
  unsigned len = 0;
  const char *s = v ? LLVMGetMDString(v, &len) : NULL;
  char *r = malloc(len + 1);
  if (!r) abort();
  if (s) memcpy(r, s, len);
  r[len] = 0;
  return r;
}

static void read_triple(hg_xlate *x, LLVMValueRef fn, const char *kind, uint32_t out[3]) {
  unsigned n = 0;
  LLVMValueRef *ops = md_operands(x, fn, kind, &n);
  if (!ops) return;
  for (unsigned i = 0; i < 3 && i < n; i++)
    if (ops[i] && LLVMIsAConstantInt(ops[i])) out[i] = (uint32_t)LLVMConstIntGetZExtValue(ops[i]);
  free(ops);
}

static void append(char **s, const char *text) {
  size_t a = strlen(*s), b = strlen(text);
  char *n = realloc(*s, a + b + 2);
  if (!n) abort();
  if (a) n[a++] = ' ';
  memcpy(n + a, text, b + 1);
  *s = n;
}

/* The IR image dimension of an OpenCL C image type name; 0 for any other name. */
static hg_ir_image_dim image_dim_of(const char *type_name) {
  static const struct { const char *name; hg_ir_image_dim dim; } k_images[] = {
      {"image1d_t", HG_IMAGE_1D},         {"image1d_buffer_t", HG_IMAGE_1D_BUFFER},
      {"image1d_array_t", HG_IMAGE_1D_ARRAY}, {"image2d_t", HG_IMAGE_2D},
      {"image2d_array_t", HG_IMAGE_2D_ARRAY}, {"image3d_t", HG_IMAGE_3D},
  };
  for (size_t i = 0; i < sizeof k_images / sizeof *k_images; i++)
    if (!strcmp(type_name, k_images[i].name)) return k_images[i].dim;
  return (hg_ir_image_dim)0;
}

bool hg_xlate_kernel_handle_type(hg_xlate *x, LLVMValueRef fn, unsigned i, hg_ir_type *out) {
  unsigned n_type = 0, n_acc = 0, n_name = 0;
  LLVMValueRef *type = md_operands(x, fn, "kernel_arg_type", &n_type);
  LLVMValueRef *acc = md_operands(x, fn, "kernel_arg_access_qual", &n_acc);
  LLVMValueRef *name = md_operands(x, fn, "kernel_arg_name", &n_name);
  char *tn = md_string(type && i < n_type ? type[i] : NULL);
  char *ac = md_string(acc && i < n_acc ? acc[i] : NULL);
  char *an = md_string(name && i < n_name ? name[i] : NULL);
  free(type), free(acc), free(name);
  char msg[256] = "";
  bool handle = true;
  hg_ir_image_dim dim = image_dim_of(tn);
  if (!strcmp(tn, "sampler_t")) {
    *out = hg_ir_sampler_ty();
  } else if (dim && (!strcmp(ac, "read_only") || !strcmp(ac, "write_only"))) {
    *out = hg_ir_image_ty(dim, !strcmp(ac, "read_only") ? HG_IMAGE_READ_ONLY : HG_IMAGE_WRITE_ONLY);
  } else if (dim) { /* the profile offers no read_write images (docs/images.md) */
    snprintf(msg, sizeof msg, "kernel argument '%s': read_write images (%s) are not supported by this device", an, tn);
  } else if (strstr(tn, "image")) { /* depth, multisample: not in the profile */
    snprintf(msg, sizeof msg, "kernel argument '%s' of type '%s' is not supported by this device", an, tn);
  } else {
    handle = false;
  }
  free(tn), free(ac), free(an);
  if (msg[0]) hg_xlate_fail(x, "%s", msg);
  return handle;
}

void hg_xlate_kernel_metadata(hg_xlate *x, LLVMValueRef fn, hg_ir_function *f) {
  unsigned np = LLVMCountParams(fn);
  f->args = calloc(np ? np : 1, sizeof *f->args);
  if (!f->args) abort();
  unsigned n_as = 0, n_acc = 0, n_type = 0, n_qual = 0, n_name = 0;
  LLVMValueRef *as = md_operands(x, fn, "kernel_arg_addr_space", &n_as);
  LLVMValueRef *acc = md_operands(x, fn, "kernel_arg_access_qual", &n_acc);
  LLVMValueRef *type = md_operands(x, fn, "kernel_arg_type", &n_type);
  LLVMValueRef *qual = md_operands(x, fn, "kernel_arg_type_qual", &n_qual);
  LLVMValueRef *name = md_operands(x, fn, "kernel_arg_name", &n_name);
  unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);

  for (unsigned i = 0; i < np; i++) {
    hg_ir_kernel_arg *a = &f->args[i];
    LLVMValueRef p = LLVMGetParam(fn, i);
    LLVMTypeRef pt = LLVMTypeOf(p);
    a->name = md_string(name && i < n_name ? name[i] : NULL);
    a->type_name = md_string(type && i < n_type ? type[i] : NULL);
    char *q = md_string(qual && i < n_qual ? qual[i] : NULL);
    if (strstr(q, "const")) a->type_qual |= 1;
    if (strstr(q, "restrict")) a->type_qual |= 2;
    if (strstr(q, "volatile")) a->type_qual |= 4;
    if (strstr(q, "pipe")) a->type_qual |= 8;
    free(q);
    char *ac = md_string(acc && i < n_acc ? acc[i] : NULL);
    a->access_qual = !strcmp(ac, "read_only") ? 1 : !strcmp(ac, "write_only") ? 2 : !strcmp(ac, "read_write") ? 3 : 0;
    free(ac);
    unsigned space = (as && i < n_as && LLVMIsAConstantInt(as[i])) ? (unsigned)LLVMConstIntGetZExtValue(as[i]) : 0;

    if (f->param_types[i].scalar == HG_IR_IMAGE || f->param_types[i].scalar == HG_IR_SAMPLER) {
      /* typed by hg_xlate_kernel_handle_type when the function was declared */
      a->kind = f->param_types[i].scalar == HG_IR_IMAGE ? HG_KARG_IMAGE : HG_KARG_SAMPLER;
      a->size = 8;
      a->align = 8;
      continue;
    }
    if ((a->type_qual & 8) || strstr(a->type_name, "image") || strstr(a->type_name, "sampler_t") || strstr(a->type_name, "pipe") ||
        strstr(a->type_name, "queue_t") || strstr(a->type_name, "clk_event_t"))
    {
      char msg[256];
      snprintf(msg, sizeof msg, "kernel argument '%s' of type '%s' is not supported by this device", a->name, a->type_name);
      free(as), free(acc), free(type), free(qual), free(name);
      hg_xlate_fail(x, "%s", msg);
    }
    LLVMAttributeRef byval = LLVMGetEnumAttributeAtIndex(fn, i + 1, byval_kind);
    if (byval) { /* a struct or union passed by value: the parameter points at a private copy */
      LLVMTypeRef bt = LLVMGetTypeAttributeValue(byval);
      a->kind = HG_KARG_VALUE;
      a->size = (uint32_t)hg_type_size(x, bt);
      a->align = hg_type_align(x, bt);
    } else if (LLVMGetTypeKind(pt) == LLVMPointerTypeKind) {
      unsigned pas = LLVMGetPointerAddressSpace(pt);
      if (space == 0) space = pas;
      a->kind = space == HG_AS_CONSTANT ? HG_KARG_CONSTANT_PTR : space == HG_AS_LOCAL ? HG_KARG_LOCAL_PTR : HG_KARG_GLOBAL_PTR;
      if (space == HG_AS_PRIVATE || space == HG_AS_GENERIC) {
        free(as), free(acc), free(type), free(qual), free(name);
        hg_xlate_fail(x, "kernel argument %u must point to __global, __constant or __local memory", i);
      }
      a->size = 8;
      a->align = 8;
    } else {
      a->kind = HG_KARG_VALUE;
      a->size = (uint32_t)hg_type_size(x, pt);
      a->align = hg_type_align(x, pt);
    }
  }
  free(as);
  free(acc);
  free(type);
  free(qual);
  free(name);

  read_triple(x, fn, "reqd_work_group_size", f->reqd_work_group_size);
  read_triple(x, fn, "work_group_size_hint", f->work_group_size_hint);
  unsigned nh = 0;
  LLVMValueRef *hint = md_operands(x, fn, "vec_type_hint", &nh);
  if (hint && nh >= 2 && hint[0]) {
    bool is_signed = LLVMIsAConstantInt(hint[1]) && LLVMConstIntGetZExtValue(hint[1]) != 0;
    f->vec_type_hint = hg_type_spelling(LLVMTypeOf(hint[0]), !is_signed);
  }
  free(hint);

  char *attrs = calloc(1, 1);
  char buf[128];
  if (!attrs) abort();
  if (f->reqd_work_group_size[0]) {
    snprintf(buf, sizeof buf, "reqd_work_group_size(%u,%u,%u)", f->reqd_work_group_size[0], f->reqd_work_group_size[1],
             f->reqd_work_group_size[2]);
    append(&attrs, buf);
  }
  if (f->work_group_size_hint[0]) {
    snprintf(buf, sizeof buf, "work_group_size_hint(%u,%u,%u)", f->work_group_size_hint[0], f->work_group_size_hint[1],
             f->work_group_size_hint[2]);
    append(&attrs, buf);
  }
  if (f->vec_type_hint) {
    snprintf(buf, sizeof buf, "vec_type_hint(%s)", f->vec_type_hint);
    append(&attrs, buf);
  }
  f->attributes = attrs;
}
