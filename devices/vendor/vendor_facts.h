/* The vendors' facts (vendor_facts.c): what each vendor device answered when the vendor libraries
 * were last loaded, cached so that a later process can list them without loading any. */
#ifndef HETGPU_DEVICES_VENDOR_VENDOR_FACTS_H
#define HETGPU_DEVICES_VENDOR_VENDOR_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "devices/backend.h"

#define HG_VENDOR_MAX_DEVICE_FACTS 16
#define HG_VENDOR_MAX_LIBS 16

typedef struct hg_vendor_file_identity {
  uint64_t size, mtime_sec, mtime_nsec, inode;
} hg_vendor_file_identity;

typedef struct hg_vendor_device_facts {
  unsigned library;        /* among the libraries listed (hg_vendor_libraries) */
  unsigned platform_index; /* among the library's platforms */
  unsigned device_index;   /* among the platform's devices (CL_DEVICE_TYPE_ALL) */
  char platform_name[128], device_name[128], driver_version[128];
  cl_device_type type;
  hg_backend_limits limits;
} hg_vendor_device_facts;

typedef struct hg_vendor_facts {
  unsigned num_libs;
  struct {
    char file[4096]; /* what the dynamic linker loaded */
    hg_vendor_file_identity identity;
  } libs[HG_VENDOR_MAX_LIBS];
  hg_vendor_file_identity ld_cache; /* /etc/ld.so.cache's when they were made */
  unsigned num_devices;
  hg_vendor_device_facts devices[HG_VENDOR_MAX_DEVICE_FACTS];
} hg_vendor_facts;

/* The cached facts for the libraries listed now (malloc'd), or NULL when there are none or a
 * library file (or the linker's cache) is not the one they were made from. */
hg_vendor_facts *hg_vendor_facts_load(void);
/* Caches the devices of f after every listed library was loaded (fills f's libraries and the
 * linker cache's identity); nothing when a library could not be loaded. */
void hg_vendor_facts_store(hg_vendor_facts *f);
/* Makes the cached facts unusable: a device did not answer as they said. */
void hg_vendor_facts_forget(void);

/* The value's form, for tests and fuzzing: decode checks every field's form and range. */
bool hg_vendor_facts_encode(const hg_vendor_facts *f, uint8_t **bytes, size_t *size);
bool hg_vendor_facts_decode(const uint8_t *bytes, size_t size, hg_vendor_facts *f);
bool hg_vendor_file_identity_of(const char *path, hg_vendor_file_identity *id);

#endif
