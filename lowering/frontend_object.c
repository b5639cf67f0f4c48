/* Compiled objects whose translation waits for their link (lowering/frontend.h): clang's
 * bitcode before LLVM's passes and the options it was compiled with, kept and cached as they are
 * (no LLVM here: lowering/llvm_objects.c links and translates them). */
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend.h"
#include "lowering/llvm_translate.h"

hg_frontend_object *hg_frontend_object_new(void *bitcode, size_t size, const char *options) {
  hg_frontend_object *obj = calloc(1, sizeof *obj);
  char *opts = strdup(options ? options : "");
  if (!obj || !opts) {
    free(obj);
    free(opts);
    free(bitcode);
    return NULL;
  }
  *obj = (hg_frontend_object){bitcode, size, opts};
  return obj;
}

void hg_frontend_object_free(hg_frontend_object *obj) {
  if (!obj)
    return;
  free(obj->bitcode);
  free(obj->options);
  free(obj);
}

#define OBJECT_MAGIC "HGOBJBC1"

/* Layout: magic, uint32 options length, the options, then the bitcode (to the end). */
uint8_t *hg_frontend_object_encode(const hg_frontend_object *obj, size_t *size) {
  uint32_t len = (uint32_t)strlen(obj->options);
  *size = 8 + 4 + len + obj->size;
  uint8_t *bytes = malloc(*size);
  if (bytes) {
    memcpy(bytes, OBJECT_MAGIC, 8);
    memcpy(bytes + 8, &len, 4);
    memcpy(bytes + 12, obj->options, len);
    memcpy(bytes + 12 + len, obj->bitcode, obj->size);
  }
  return bytes;
}

hg_frontend_object *hg_frontend_object_decode(const uint8_t *bytes, size_t size) {
  static const uint8_t bitcode_magic[4] = {'B', 'C', 0xC0, 0xDE};
  uint32_t len;
  if (size < 12 || memcmp(bytes, OBJECT_MAGIC, 8))
    return NULL;
  memcpy(&len, bytes + 8, 4);
  if (len > size - 12 || size - 12 - len < 4 || memcmp(bytes + 12 + len, bitcode_magic, 4) ||
      memchr(bytes + 12, 0, len))
    return NULL;
  char *opts = malloc(len + 1);
  void *bits = malloc(size - 12 - len);
  if (!opts || !bits) {
    free(opts);
    free(bits);
    return NULL;
  }
  memcpy(opts, bytes + 12, len);
  opts[len] = 0;
  memcpy(bits, bytes + 12 + len, size - 12 - len);
  hg_frontend_object *obj = hg_frontend_object_new(bits, size - 12 - len, opts);
  free(opts);
  return obj;
}
