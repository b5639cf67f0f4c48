/* hetgpu-cc: the OpenCL C front end and the IR tools on the command line.
 *
 *   hetgpu-cc [build options] kernel.cl -o kernel.hgir   compile to an IR binary
 *   hetgpu-cc [build options] kernel.cl --print          compile and print the IR text
 *   hetgpu-cc [build options] kernel.spv -o kernel.hgir  a SPIR-V module to an IR binary (the
 *                                                        driver's clCreateProgramWithIL path)
 *   hetgpu-cc kernel.hgir --print                        print a binary's IR text
 *   hetgpu-cc kernel.hgir --verify                       check a binary (exit status 0 if valid)
 *   hetgpu-cc kernel.cl|kernel.hgir --emit-opencl-c      lower to OpenCL C (stdout, or -o file)
 *   hetgpu-cc kernel.cl|kernel.hgir --stoppable          the same with the stoppable, resume and
 *                                                        catch-up forms (docs/opencl-c-safe-points.md)
 *                                                        as a CPU device gets them; --stoppable-gpu
 *                                                        as a GPU does (hg_oc_forms_target)
 *   hetgpu-cc kernel.cl|kernel.hgir --robust             the robust form, every global access checked
 *                                                        (HETGPU_ROBUST, docs/robust-access.md)
 *   hetgpu-cc kernel.cl|kernel.hgir --emit-spir -o k.bc  lower to SPIR bitcode, as PoCL gets it
 *                                                        (docs/spir-backend.md)
 *   hetgpu-cc kernel.cl|kernel.hgir --emit-ptx -o k.ptx   lower to PTX, as NVIDIA's OpenCL gets it
 *                                                        (docs/ptx-backend.md)
 *
 * Build options are every other argument starting with '-' (-D, -I with or without a separate
 * value, -cl-std=, -cl-fast-relaxed-math ...), or given whole with --options "...".
 * --library compiles as clCompileProgram does (undefined functions stay declarations). Source is
 * compiled by hg_frontend_source_to_ir, the driver's own path: an executable's IR binary carries
 * the execution state (safe points, layouts) and is byte for byte what clBuildProgram returns
 * as CL_PROGRAM_BINARIES for the same source and options. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ir/ir.h"
#include "lowering/frontend.h"
#include "lowering/frontend_spirv.h"
#include "lowering/opencl_c.h"
#include "lowering/opencl_c_stop.h"
#include "lowering/ptx.h"
#include "lowering/spir.h"

static void usage(void) {
  fprintf(stderr,
          "usage: hetgpu-cc [build options] INPUT [-o OUTPUT] [--print | --verify | --emit-opencl-c | --stoppable | --stoppable-gpu | --robust | --emit-spir | --emit-ptx]\n"
          "                 [--library] [--options \"OPTIONS\"]\n"
          "INPUT is OpenCL C source, a SPIR-V module or an IR binary; build options are passed to the front end.\n");
}

static unsigned char *read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  unsigned char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    unsigned char *nb = realloc(buf, (cap *= 2) + 1);
    if (!nb) free(buf);
    buf = nb;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  *size = n;
  return buf;
}

static int write_file(const char *path, const void *data, size_t size) {
  FILE *f = path ? fopen(path, "wb") : stdout;
  if (!f) return -1;
  int rc = fwrite(data, 1, size, f) == size ? 0 : -1;
  if (path && fclose(f) != 0) rc = -1;
  return rc;
}

/* Appends one argument to the options; quoted when it holds blanks (-D "X=a b"), unless it is
 * an --options string, which is options already and goes in as given. */
static void append_option(char **opts, const char *a, bool whole) {
  size_t old = strlen(*opts), n = strlen(a);
  bool quote = !whole && strpbrk(a, " \t") != NULL;
  char *s = realloc(*opts, old + n + 4);
  if (!s) exit(3);
  if (old) s[old++] = ' ';
  if (quote) s[old++] = '"';
  memcpy(s + old, a, n);
  old += n;
  if (quote) s[old++] = '"';
  s[old] = 0;
  *opts = s;
}

/* The printf table the driver keeps beside the lowered source (docs/printf.md), as a comment. */
static void print_printf_table(const hg_printf_table *pt) {
  for (uint32_t i = 0; i < pt->num_kernels; i++)
    printf("/* kernel %s: hidden last argument __global uint *hg_printf_buf (the printf buffer) */\n", pt->kernels[i]);
  for (uint32_t i = 0; i < pt->num_formats; i++) {
    printf("/* printf format %u: \"", i);
    for (const unsigned char *p = (const unsigned char *)pt->formats[i]; *p; p++) {
      if (*p == '\n') printf("\\n");
      else if (*p < 32 || *p >= 127 || *p == '*' || *p == '"' || *p == '\\') printf("\\x%02x", *p);
      else putchar(*p);
    }
    printf("\" */\n");
  }
  if (pt->num_strings) printf("/* %u constant string(s) for %%s arguments */\n", pt->num_strings);
}

int main(int argc, char **argv) {
  const char *input = NULL, *output = NULL;
  bool print = false, verify = false, emit_c = false, stoppable = false, gpu_forms = false, robust = false, library = false, spir = false, ptx = false;
  char *opts = calloc(1, 1);
  if (!opts) return 3;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-o") && i + 1 < argc) output = argv[++i];
    else if (!strcmp(a, "--print")) print = true;
    else if (!strcmp(a, "--verify")) verify = true;
    else if (!strcmp(a, "--emit-opencl-c")) emit_c = true;
    else if (!strcmp(a, "--stoppable")) emit_c = stoppable = true;
    else if (!strcmp(a, "--stoppable-gpu")) emit_c = stoppable = gpu_forms = true;
    else if (!strcmp(a, "--robust")) emit_c = robust = true;
    else if (!strcmp(a, "--emit-spir")) spir = true;
    else if (!strcmp(a, "--emit-ptx")) ptx = true;
    else if (!strcmp(a, "--library")) library = true;
    else if (!strcmp(a, "--options") && i + 1 < argc) append_option(&opts, argv[++i], true);
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      usage();
      free(opts);
      return 0;
    } else if ((!strcmp(a, "-D") || !strcmp(a, "-I")) && i + 1 < argc) {
      append_option(&opts, a, false);
      append_option(&opts, argv[++i], false);
    } else if (a[0] == '-' && a[1]) append_option(&opts, a, false);
    else if (!input) input = a;
    else {
      usage();
      free(opts);
      return 2;
    }
  }
  if (!input || (!output && !print && !verify && !emit_c) || ((spir || ptx) && (!output || emit_c || (spir && ptx)))) {
    usage();
    free(opts);
    return 2;
  }
  size_t size;
  unsigned char *data = read_file(input, &size);
  if (!data) {
    fprintf(stderr, "hetgpu-cc: cannot read %s\n", input);
    free(opts);
    return 1;
  }
  hg_ir_module *m = NULL;
  char err[1024] = "";
  int status = 0;
  if (hg_ir_is_binary(data, size)) {
    m = hg_ir_decode(data, size, err, sizeof err);
    if (!m) {
      fprintf(stderr, "hetgpu-cc: %s: invalid IR binary: %s\n", input, err);
      status = 1;
    }
  } else {
    char *log = NULL;
    uint32_t magic = 0;
    if (size >= 4) memcpy(&magic, data, 4);
    bool spirv = magic == HG_SPIRV_MAGIC || magic == __builtin_bswap32(HG_SPIRV_MAGIC);
    cl_int rc = spirv ? hg_frontend_spirv_to_ir(data, size, opts, NULL, 0, library, &m, &log)
                      : hg_frontend_source_to_ir((const char *)data, opts, NULL, 0, library, &m, &log);
    if (log && log[0]) fputs(log, stderr);
    free(log);
    if (rc != CL_SUCCESS) {
      fprintf(stderr, "hetgpu-cc: %s: compilation failed (%s)\n", input,
              rc == CL_INVALID_BUILD_OPTIONS ? "CL_INVALID_BUILD_OPTIONS"
              : rc == CL_INVALID_VALUE      ? "CL_INVALID_VALUE"
                                            : "CL_COMPILE_PROGRAM_FAILURE");
      status = 1;
    }
  }
  if (m && verify) {
    if (hg_ir_verify(m, err, sizeof err)) {
      printf("%s: valid\n", input);
    } else {
      printf("%s: invalid: %s\n", input, err);
      status = 1;
    }
  }
  if (m && print && status == 0) {
    char *text = hg_ir_print(m);
    if (text) fputs(text, stdout);
    else status = 1;
    free(text);
  }
  if (m && (spir || ptx) && status == 0) {
    size_t bc_size = 0;
    uint8_t *bc = spir ? hg_lower_spir(m, false, &bc_size, err, sizeof err) : (uint8_t *)hg_lower_ptx(m, &bc_size, err, sizeof err);
    if (bc && ptx)
      bc_size--; /* the file without the NUL */
    if (!bc) {
      fprintf(stderr, "hetgpu-cc: lowering to %s failed: %s\n", spir ? "SPIR" : "PTX", err);
      status = 1;
    } else if (write_file(output, bc, bc_size) != 0) {
      status = 1;
    }
    free(bc);
  } else if (m && emit_c && status == 0) {
    hg_printf_table pt;
    hg_oc_stop_table stop = {0};
    hg_oc_forms_target target = hg_oc_forms_target_of(!gpu_forms);
    char *src = stoppable ? hg_lower_opencl_c_stoppable(m, &target, &pt, &stop, err, sizeof err)
                : robust  ? hg_lower_opencl_c_robust(m, &pt, err, sizeof err)
                          : hg_lower_opencl_c(m, &pt, err, sizeof err);
    hg_oc_stop_table_free(&stop);
    if (!src) {
      fprintf(stderr, "hetgpu-cc: lowering to OpenCL C failed: %s\n", err);
      status = 1;
    } else {
      const char *vopts = hg_lower_opencl_c_options(m);
      if (!output) {
        printf("/* build options: %s */\n", vopts ? vopts : "");
        print_printf_table(&pt);
      }
      if (write_file(output, src, strlen(src)) != 0) status = 1;
      free(src);
      hg_printf_table_free(&pt);
    }
  } else if (m && output && status == 0) {
    uint8_t *bin = NULL;
    size_t bin_size = 0;
    if (hg_ir_encode(m, &bin, &bin_size) != 0 || write_file(output, bin, bin_size) != 0) {
      fprintf(stderr, "hetgpu-cc: cannot write %s\n", output);
      status = 1;
    }
    free(bin);
  }
  hg_ir_module_free(m);
  free(data);
  free(opts);
  return status;
}
