/* The inside of memory objects, shared by the files that implement buffers and the commands on
 * them (mem_buffer.c, mem_storage.c, enqueue_*.c). Everything else uses platform/mem.h. */
#ifndef HETGPU_PLATFORM_MEM_OBJECT_H
#define HETGPU_PLATFORM_MEM_OBJECT_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

#include "devices/backend.h"
#include "devices/profile.h"
#include "platform/object.h"

/* Backend indices a storage record tracks (hg_backend.index). */
#define HG_MEM_MAX_BACKENDS 16u

/* Every flag clCreateBuffer accepts. */
#define HG_MEM_ACCESS_FLAGS (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY)
#define HG_MEM_HOST_PTR_FLAGS (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)
#define HG_MEM_HOST_ACCESS_FLAGS (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)
#define HG_MEM_BUFFER_FLAGS (HG_MEM_ACCESS_FLAGS | HG_MEM_HOST_PTR_FLAGS | HG_MEM_HOST_ACCESS_FLAGS)

/* CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes: sub-buffer origins must be multiples of it. */
#define HG_MEM_BASE_ALIGN_BYTES (HG_PROFILE_MEM_BASE_ADDR_ALIGN_BITS / 8u)

/* One backend's copy of a root buffer's contents. */
typedef struct hg_mem_copy {
  hg_dev_mem *mem;    /* NULL until first needed there */
  bool valid;         /* holds the current contents */
  unsigned host_maps; /* the application's zero-copy mappings into it: it is not freed before they end */
} hg_mem_copy;

/* A migration's host-side copy registered with the backend on the other side of the move (a
 * GPU's host_register), from the migration's prepare phase until it ends (hg_migrate_pin). */
typedef struct hg_mem_pin {
  hg_backend *with; /* the backend holding the registration; NULL: none */
  void *handle;
  const void *host; /* the host mapping registered */
} hg_mem_pin;

/* Where a root buffer's bytes live: at most one allocation per backend, plus a host copy made
 * by migrations to the host and used as staging between backends. At least one copy is valid
 * at any time. Sub-buffers share their parent's record. */
typedef struct hg_mem_storage {
  pthread_mutex_t lock; /* held while copies are allocated, moved or marked */
  size_t size;
  hg_mem_copy dev[HG_MEM_MAX_BACKENDS];
  void *host; /* NULL until a migration to the host or a move between backends needs it */
  void *at_host; /* CL_MEM_USE_HOST_PTR: the application's region, where backends that can keep
                    this buffer's allocation (mem_alloc_at: CPU vendors), so its maps copy nothing */
  bool host_valid;
  void *mapped;        /* a backend copy mapped for hg_mem_storage_host_contents, or NULL */
  unsigned mapped_on;  /* that backend's index */
  hg_mem_pin pin;      /* while a migration moves it: a copy is not freed before it is unpinned */
  /* An image's (its cl_mem's, which outlives the record): allocations go through image_alloc,
   * contents move whole (mem_read/mem_write of `size` bytes only); NULL for buffers. */
  const hg_image_layout *image;
} hg_mem_storage;

/* What a command is about to do with a buffer's storage on a backend. */
typedef enum hg_mem_access {
  HG_MEM_READ,    /* needs the current contents */
  HG_MEM_WRITE,   /* needs the current contents and changes some of them */
  HG_MEM_DISCARD, /* overwrites all of them (or their old value does not matter) */
} hg_mem_access;

/* Creates the record with an allocation on `be`, initialised from `init` when not NULL. */
/* A storage whose first copy is on `be`, holding `init` (NULL: undefined contents); at_host:
 * the application's CL_MEM_USE_HOST_PTR region (also init), kept as allocations where backends can. */
cl_int hg_mem_storage_create(size_t size, hg_backend *be, const void *init, void *at_host, hg_mem_storage **out);
/* The storage of an image of `layout` (kept by the caller for the record's life), its first
 * copy on `be`, holding `init` (packed, NULL: undefined). */
cl_int hg_mem_storage_create_image(const hg_image_layout *layout, hg_backend *be, const void *init,
                                   hg_mem_storage **out);
void hg_mem_storage_destroy(hg_mem_storage *st);
/* Makes the copy on `be` valid for the access and returns its allocation. */
cl_int hg_mem_storage_acquire(hg_mem_storage *st, hg_backend *be, hg_mem_access access, hg_dev_mem **out);
/* Zero-copy maps: the host address of the allocation on `be` (mem_host_address), its contents
 * not necessarily current yet, counted so that the allocation is not freed (eviction, a
 * migration's release or abort) until hg_mem_storage_unmap_direct; NULL when `be` has no such
 * address or no allocation. *mem receives the allocation. */
void *hg_mem_storage_map_direct(hg_mem_storage *st, hg_backend *be, hg_dev_mem **mem);
void hg_mem_storage_unmap_direct(hg_mem_storage *st, hg_backend *be);
/* Makes the host copy valid (no transfer when the contents may be undefined). */
cl_int hg_mem_storage_to_host(hg_mem_storage *st, bool content_undefined);

/* A migration moves a storage in steps so that a failure anywhere leaves the source whole:
 * prepare, while commands still run on the source, allocates the target's copy when it is not
 * current there, makes its pages resident when it is host memory (the page faults leave the
 * downtime) and registers the move's host side with a GPU on the other side (unpin ends that,
 * after the downtime; abort, release and destroy unpin first; *unpinned: the bytes it will move
 * without a registration); stage makes a current copy on the target without touching the others (*moved:
 * bytes copied, 0 when the target was current already; *lost: every current copy was on a lost
 * device, the target's copy is zeroed instead); then either commit (the target's copy becomes
 * valid; the others keep their marks, since a valid one holds the same bytes) or abort (the
 * target's copy is freed unless it is current: it holds nothing the context needs). The caller
 * keeps every command away from stage and commit. Release frees every copy but `keep`'s (valid
 * there): a migration with CL_MIGRATE_RELEASE_SOURCE_HETGPU, once commands run again. */
cl_int hg_mem_storage_prepare(hg_mem_storage *st, hg_backend *target, size_t *unpinned);
void hg_mem_storage_unpin(hg_mem_storage *st, hg_backend *target);
cl_int hg_mem_storage_stage(hg_mem_storage *st, hg_backend *target, size_t *moved, bool *lost);
void hg_mem_storage_commit(hg_mem_storage *st, hg_backend *target);
void hg_mem_storage_release(hg_mem_storage *st, hg_backend *keep);
/* Frees every copy on `be` that is not needed: stale ones, and valid ones while another copy
 * is valid too (platform/mem_evict.c); returns the bytes given back. */
size_t hg_mem_evict_stale(hg_backend *be);

/* Every allocation a buffer makes on a backend, and its release: they count against the
 * virtual device's global memory (CL_DEVICE_GLOBAL_MEM_SIZE), which the application was told,
 * so an allocation past it fails with CL_MEM_OBJECT_ALLOCATION_FAILURE before the backend is
 * asked (a vendor may assert, or the kernel's OOM killer end the process). */
cl_int hg_mem_backend_alloc(hg_backend *be, size_t size, void *at_host, const hg_image_layout *image,
                            hg_dev_mem **out);
void hg_mem_backend_free(hg_backend *be, hg_dev_mem *mem, size_t size);
void hg_mem_storage_abort(hg_mem_storage *st, hg_backend *target);
/* The current contents readable on the host, for a checkpoint: a valid backend copy mapped in
 * host memory when a backend can (no copy made), else the host copy, filled first. Valid while
 * no command runs, until hg_mem_storage_host_done, which unmaps it and frees a host copy that
 * is not the only one. */
cl_int hg_mem_storage_host_contents(hg_mem_storage *st, const void **data);
void hg_mem_storage_host_done(hg_mem_storage *st);

/* One mapping handed to the application by clEnqueueMapBuffer. Shared by the list of the
 * buffer's mappings and the map command, which may still be writing to it. */
typedef struct hg_mem_mapping {
  atomic_uint refs;
  void *ptr;       /* what the application got */
  size_t offset;   /* in the buffer (not counting a sub-buffer's origin) */
  size_t size;
  cl_map_flags flags;
  bool staged;     /* ptr is our allocation (not the application's host_ptr) */
  /* Zero-copy: ptr lies in the buffer's allocation on this backend (hg_mem_storage_map_direct),
   * and direct_begun says its mem_host_begin was called by the map command (the unmap ends it). */
  hg_backend *direct_on;
  hg_dev_mem *direct_mem;
  atomic_bool direct_begun;
  /* clEnqueueMapImage of an image: the region in image coordinates (x in bytes) and the pitches
   * of ptr's memory; offset and size then describe nothing */
  bool image;
  size_t origin[3], region[3], row_pitch, slice_pitch;
  struct hg_mem_mapping *next;
} hg_mem_mapping;

void hg_mem_mapping_release(hg_mem_mapping *m);

typedef struct hg_mem_destructor {
  void(CL_CALLBACK *fn)(cl_mem memobj, void *user_data);
  void *user_data;
  struct hg_mem_destructor *next; /* the most recently registered first */
} hg_mem_destructor;

/* What an image cl_mem holds besides a buffer's (platform/mem_image.c). */
typedef struct hg_mem_image {
  hg_image_layout layout;  /* packed: what every backend allocates */
  cl_image_format format;
  cl_image_desc desc;      /* as the application gave it (mem_object: the buffer of a 1D buffer image) */
  size_t host_row_pitch, host_slice_pitch; /* of host_ptr's memory (CL_MEM_USE_HOST_PTR) */
} hg_mem_image;

struct _cl_mem {
  hg_object obj;         /* refcount: the application's references plus internal ones */
  atomic_uint app_refs;  /* the application's references (CL_MEM_REFERENCE_COUNT) */
  cl_context context;
  cl_mem_flags flags;    /* as clGetMemObjectInfo reports them (sub-buffers: with inherited ones) */
  size_t size;
  void *host_ptr;        /* CL_MEM_USE_HOST_PTR: the application's memory for this (sub-)buffer */
  cl_mem parent;         /* sub-buffers: the buffer they are part of; 1D buffer images: their
                            buffer (internal reference) */
  size_t origin;         /* sub-buffers: their offset in the parent */
  hg_mem_storage *storage; /* the root buffer's */
  cl_mem_properties *properties; /* copy incl. the terminating 0; NULL when none were given */
  size_t num_properties;
  pthread_mutex_t lock;  /* mappings, map_count, destructors */
  hg_mem_mapping *mappings;
  cl_uint map_count;
  hg_mem_destructor *destructors;
  hg_mem_image *image;   /* images only; NULL for buffers */
};

/* An image of the 1D buffer type: its bytes are its buffer's, addressed like a buffer's. */
static inline bool hg_mem_is_buffer_image(cl_mem mem) {
  return mem->image && mem->image->layout.type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
}

/* A memory object with its lock, flags (no access flag: CL_MEM_READ_WRITE) and one application
 * reference, not yet a live handle (mem_buffer.c). */
cl_mem hg_mem_new(cl_context ctx, cl_mem_flags flags, size_t size);
/* At most one of each group of mutually exclusive flags, and nothing unknown. */
bool hg_mem_flags_valid(cl_mem_flags flags);
/* The flags of a memory object made from a buffer (a sub-buffer, a 1D buffer image): those asked
 * for, checked against the buffer's, plus what it inherits (clCreateSubBuffer, clCreateImage's
 * mem_object). 0, never a valid result (a buffer always holds an access flag), when they
 * conflict or ask for host pointer flags. */
cl_mem_flags hg_mem_flags_from_buffer(cl_mem_flags buffer, cl_mem_flags flags);

/* True when the host may read (resp. write) the buffer through read/write/map commands. */
static inline bool hg_mem_host_readable(cl_mem mem) {
  return !(mem->flags & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS));
}
static inline bool hg_mem_host_writable(cl_mem mem) {
  return !(mem->flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS));
}

#endif
