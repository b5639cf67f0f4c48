#include "common/driver_file.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

const char *hg_driver_image(void) {
  Dl_info info;
  return dladdr((void *)&hg_driver_image, &info) ? info.dli_fname : NULL;
}

bool hg_driver_file(const char *name, char *path, size_t size) {
  const char *image = hg_driver_image();
  if (!image)
    return false;
  const char *slash = strrchr(image, '/');
  int n = slash ? snprintf(path, size, "%.*s/%s", (int)(slash - image), image, name) : snprintf(path, size, "./%s", name);
  return n > 0 && (size_t)n < size;
}
