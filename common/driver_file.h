/* Files installed beside the driver library: <directory of the image this is linked into>/name
 * (libhetgpu.so's in the driver; a test's own image where a test links the sources). */
#ifndef HETGPU_COMMON_DRIVER_FILE_H
#define HETGPU_COMMON_DRIVER_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* The image's own file name (NULL when not known) and the path of `name` beside it; false when
 * either is not known or the path does not fit. */
const char *hg_driver_image(void);
bool hg_driver_file(const char *name, char *path, size_t size);

#endif
