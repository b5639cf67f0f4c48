/* Live-handle registry: an open-addressing hash set of object addresses, sharded by address
 * so concurrent creators and validators rarely contend on one lock, with a table of recently
 * found handles in front of it that is read without a lock. */
#include "platform/object.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HG_REGISTRY_SHARDS 64

typedef struct registry_shard {
  pthread_mutex_t lock;
  uintptr_t *slots; /* 0 = empty, 1 = tombstone */
  size_t capacity;  /* power of two */
  size_t used;      /* live + tombstones */
} registry_shard;

static registry_shard shards[HG_REGISTRY_SHARDS];
static pthread_once_t registry_once = PTHREAD_ONCE_INIT;

static void registry_init(void) {
  for (int i = 0; i < HG_REGISTRY_SHARDS; i++)
    pthread_mutex_init(&shards[i].lock, NULL);
}

static size_t hash_ptr(uintptr_t p) {
  uint64_t x = (uint64_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static registry_shard *shard_of(uintptr_t p) { return &shards[(hash_ptr(p) >> 40) % HG_REGISTRY_SHARDS]; }

/* Rehashes the live addresses, dropping the tombstones, into a table at most half full: it
 * grows only with the live handles, not with every handle an application ever made (a queue
 * makes an event per command). */
static void shard_rehash(registry_shard *s) {
  size_t live = 0;
  for (size_t i = 0; i < s->capacity; i++)
    live += s->slots[i] > 1;
  size_t cap = 64;
  while ((live + 1) * 2 > cap)
    cap *= 2;
  uintptr_t *slots = calloc(cap, sizeof *slots);
  if (!slots)
    abort(); /* registry bookkeeping cannot fail soft: a handle we cannot track is unusable */
  for (size_t i = 0; i < s->capacity; i++) {
    uintptr_t v = s->slots[i];
    if (v > 1) {
      size_t j = hash_ptr(v) & (cap - 1);
      while (slots[j])
        j = (j + 1) & (cap - 1);
      slots[j] = v;
    }
  }
  free(s->slots);
  s->slots = slots;
  s->capacity = cap;
  s->used = live;
}

static void registry_add(uintptr_t p) {
  pthread_once(&registry_once, registry_init);
  registry_shard *s = shard_of(p);
  pthread_mutex_lock(&s->lock);
  if ((s->used + 1) * 4 > s->capacity * 3)
    shard_rehash(s);
  size_t j = hash_ptr(p) & (s->capacity - 1);
  while (s->slots[j] > 1)
    j = (j + 1) & (s->capacity - 1);
  if (s->slots[j] == 0)
    s->used++;
  s->slots[j] = p;
  pthread_mutex_unlock(&s->lock);
}

static bool registry_find(registry_shard *s, uintptr_t p, size_t *at) {
  if (!s->capacity)
    return false;
  size_t j = hash_ptr(p) & (s->capacity - 1);
  for (size_t n = 0; n < s->capacity && s->slots[j]; n++) {
    if (s->slots[j] == p) {
      *at = j;
      return true;
    }
    j = (j + 1) & (s->capacity - 1);
  }
  return false;
}

/* Handles found live, checked again without a lock: an application passes the same few (its
 * queue, kernels and buffers) on every call, and a launch's checks took three shard locks
 * (docs/performance.md). A direct-mapped table shared by all threads (thread-local storage in a
 * library the ICD loader opens is glibc's dynamic TLS, whose hand-over between threads
 * ThreadSanitizer cannot follow). An address enters it, and leaves it, only under its shard's
 * lock, where the registry adds and removes it, so the table never holds an address the
 * registry does not; each entry is a sequence lock (odd while written), so a reader sees a whole
 * entry or none. */
#define SEEN_SLOTS 256
typedef struct seen_slot {
  atomic_uint seq;
  atomic_uintptr_t ptr;
} seen_slot;
static seen_slot seen[SEEN_SLOTS];

static seen_slot *seen_slot_of(uintptr_t p) { return &seen[hash_ptr(p) % SEEN_SLOTS]; }

static bool seen_live(uintptr_t p) {
  seen_slot *s = seen_slot_of(p);
  unsigned v = atomic_load_explicit(&s->seq, memory_order_acquire);
  bool hit = !(v & 1) && atomic_load_explicit(&s->ptr, memory_order_relaxed) == p;
  atomic_thread_fence(memory_order_acquire);
  return hit && atomic_load_explicit(&s->seq, memory_order_relaxed) == v;
}

/* Puts p in its slot (to = p) or takes it out (to = 0, only where the slot holds p). Under p's
 * shard lock. A record gives way to another writer; a removal waits for it. */
static void seen_write(uintptr_t p, uintptr_t to) {
  seen_slot *s = seen_slot_of(p);
  for (;;) {
    unsigned v = atomic_load_explicit(&s->seq, memory_order_relaxed);
    if (v & 1) {
      if (to)
        return;
      continue; /* another shard's address is being written: it replaces p, or not */
    }
    if (!to && atomic_load_explicit(&s->ptr, memory_order_relaxed) != p)
      return;
    if (!atomic_compare_exchange_weak_explicit(&s->seq, &v, v + 1, memory_order_acquire, memory_order_relaxed)) {
      if (to)
        return;
      continue;
    }
    atomic_store_explicit(&s->ptr, to, memory_order_relaxed);
    atomic_store_explicit(&s->seq, v + 2, memory_order_release);
    return;
  }
}

static void registry_remove(uintptr_t p) {
  registry_shard *s = shard_of(p);
  pthread_mutex_lock(&s->lock);
  size_t at;
  if (registry_find(s, p, &at)) {
    s->slots[at] = 1;
    seen_write(p, 0);
  }
  pthread_mutex_unlock(&s->lock);
}

void hg_object_init_unlisted(hg_object *obj, hg_object_type type) {
  obj->dispatch = &hg_dispatch;
  obj->magic = HG_MAGIC(type);
  atomic_init(&obj->refcount, 1);
  obj->listed = false;
}

void hg_object_list(hg_object *obj) {
  if (obj->listed)
    return;
  obj->listed = true;
  registry_add((uintptr_t)obj);
}

void hg_object_init(hg_object *obj, hg_object_type type) {
  hg_object_init_unlisted(obj, type);
  hg_object_list(obj);
}

/* The magic is read without a lock where a handle was seen live (hg_object_is), and cleared
 * when the object goes: atomically, for an application that releases a handle on one thread
 * while passing it on another. */
static uint32_t magic_of(const void *obj) { return __atomic_load_n(&((const hg_object *)obj)->magic, __ATOMIC_RELAXED); }
static void clear_magic(hg_object *obj) { __atomic_store_n(&obj->magic, 0, __ATOMIC_RELAXED); }

void hg_object_retire(hg_object *obj) {
  if (obj->listed)
    registry_remove((uintptr_t)obj);
  clear_magic(obj);
}

static pthread_mutex_t quarantine_lock = PTHREAD_MUTEX_INITIALIZER;
static void *quarantine[HG_QUARANTINE_SIZE];
static size_t quarantine_next;

void hg_object_free(hg_object *obj) {
  clear_magic(obj);
  if (!obj->listed) {
    free(obj);
    return;
  }
  pthread_mutex_lock(&quarantine_lock);
  void *oldest = quarantine[quarantine_next];
  quarantine[quarantine_next] = obj;
  quarantine_next = (quarantine_next + 1) % HG_QUARANTINE_SIZE;
  pthread_mutex_unlock(&quarantine_lock);
  free(oldest);
}

bool hg_object_is(const void *ptr, hg_object_type type) {
  if (!ptr)
    return false;
  uintptr_t p = (uintptr_t)ptr;
  if (seen_live(p))
    return magic_of(ptr) == HG_MAGIC(type);
  pthread_once(&registry_once, registry_init);
  registry_shard *s = shard_of(p);
  pthread_mutex_lock(&s->lock);
  size_t at;
  bool listed = registry_find(s, p, &at);
  if (listed)
    seen_write(p, p);
  bool live = listed && magic_of(ptr) == HG_MAGIC(type);
  pthread_mutex_unlock(&s->lock);
  return live;
}
