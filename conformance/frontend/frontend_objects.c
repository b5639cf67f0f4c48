/* Compiled objects as bitcode (lowering/frontend_object.c): an object's IR keeps every
 * external function, a link of objects keeps only what its kernels reach (what the linked
 * kernels compute is api_program's link_mixed_objects_and_duplicates), and a link with a
 * function undefined fails; an object's bytes (what the program cache stores) round-trip, and a
 * damaged header or truncated bytes decode to nothing or to an object whose translation
 * succeeds or fails cleanly, never a crash (flipped bytes inside the bitcode are the cache's to
 * refuse, by the hash it checks every entry against: LLVM's bitcode reader is not written for
 * hostile input). Seeded by HETGPU_TEST_SEED. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ir/ir.h"
#include "conformance/harness/unit_check.h"
#include "lowering/frontend.h"

static const char k_lib[] = "int unused_a(int x) { int s = 0; for (int i = 0; i < x; i++) s += i ^ x; return s; }\n"
                            "int sq(int x) { return x * x; }\n"
                            "int unused_b(int x) { return unused_a(x) + 1; }\n";
static const char k_main[] = "int sq(int x);\n"
                             "__kernel void square(__global const int *in, __global int *out) {\n"
                             "  size_t i = get_global_id(0); out[i] = sq(in[i]); }\n";

static bool has_function(const hg_ir_module *m, const char *name) {
  for (uint32_t i = 0; m && i < m->num_functions; i++)
    if (!strcmp(m->functions[i].name, name))
      return true;
  return false;
}

static hg_frontend_object *compile(const char *src, const char *opts) {
  hg_frontend_object *obj = NULL;
  char *log = NULL;
  cl_int rc = hg_frontend_compile_object(src, opts, NULL, 0, &obj, &log, NULL);
  CHECK(rc == CL_SUCCESS && obj, "compile failed (%d): %s", rc, log ? log : "");
  free(log);
  return obj;
}

int main(void) {
  const char *seed_env = getenv("HETGPU_TEST_SEED");
  unsigned seed = seed_env ? (unsigned)strtoul(seed_env, NULL, 0) : (unsigned)time(NULL);
  printf("seed %u (HETGPU_TEST_SEED)\n", seed);
  srand(seed);
  hg_frontend_object *lib = compile(k_lib, "-DUNUSED=1"), *main_obj = compile(k_main, "");
  if (!lib || !main_obj)
    return 1;

  /* the object's IR keeps every external function; the link only what the kernel reaches */
  hg_ir_module *m = NULL;
  char *log = NULL;
  CHECK(hg_frontend_object_to_ir(lib, &m, &log) == CL_SUCCESS, "object to IR: %s", log ? log : "");
  CHECK(has_function(m, "unused_a") && has_function(m, "unused_b") && has_function(m, "sq"),
        "the object's IR lost an external function");
  hg_ir_module_free(m);
  free(log);
  log = NULL;
  const hg_frontend_object *both[2] = {main_obj, lib};
  CHECK(hg_frontend_link_objects(both, 2, &m, &log) == CL_SUCCESS, "link: %s", log ? log : "");
  CHECK(m && m->program_kind == HG_IR_PROGRAM_EXECUTABLE && has_function(m, "square") && !has_function(m, "unused_a") &&
            !has_function(m, "unused_b"),
        "the link kept a function no kernel reaches, or lost the kernel");
  hg_ir_module_free(m);
  free(log);
  log = NULL;
  /* the main object alone: sq is undefined */
  CHECK(hg_frontend_link_objects(both, 1, &m, &log) == CL_LINK_PROGRAM_FAILURE && !m, "a link with sq undefined");
  free(log);

  /* bytes: round trip, then damaged copies */
  size_t size;
  uint8_t *bytes = hg_frontend_object_encode(lib, &size);
  hg_frontend_object *back = bytes ? hg_frontend_object_decode(bytes, size) : NULL;
  size_t size2 = 0;
  uint8_t *again = back ? hg_frontend_object_encode(back, &size2) : NULL;
  CHECK(again && size2 == size && !memcmp(again, bytes, size), "an object's bytes do not round-trip");
  free(again);
  hg_frontend_object_free(back);
  unsigned decoded = 0;
  for (int round = 0; round < 400; round++) {
    uint8_t *copy = malloc(size);
    memcpy(copy, bytes, size);
    size_t n = size;
    switch (round % 3) {
    case 0: /* flipped bytes in the header (magic, options length, options) */
      for (int k = 0; k < 1 + rand() % 4; k++)
        copy[(size_t)rand() % 24] ^= (uint8_t)(1 + rand() % 255);
      break;
    case 1: /* truncated, the bitcode's end included */
      n = (size_t)rand() % size;
      break;
    default: /* a random options length */
      copy[8 + rand() % 4] = (uint8_t)rand();
    }
    hg_frontend_object *obj = hg_frontend_object_decode(copy, n);
    if (obj) {
      decoded++;
      hg_ir_module *mm = NULL;
      char *l = NULL;
      cl_int rc = hg_frontend_object_to_ir(obj, &mm, &l); /* either translates or fails cleanly */
      CHECK(rc == CL_SUCCESS ? mm != NULL : mm == NULL, "round %d: result and code disagree", round);
      hg_ir_module_free(mm);
      free(l);
      hg_frontend_object_free(obj);
    }
    free(copy);
  }
  printf("%u of 400 damaged copies decoded (and translated or failed cleanly)\n", decoded);
  free(bytes);
  hg_frontend_object_free(lib);
  hg_frontend_object_free(main_obj);
  printf("%s\n", failures ? "FAILED" : "ok");
  return failures != 0;
}
