/* The vendors' facts (devices/vendor/vendor_facts.c), run by `vendor_backend_test --facts` in a
 * process of its own with a private cache: the value's form round-trips and every truncation or
 * corruption of it is refused or decodes to a well-formed value (never a crash: the sanitizer
 * runs watch), a live probe caches facts from which a later probe lists the same backends closed,
 * a closed backend opens and works (also when the device now has more memory than its facts say),
 * and one whose device does not answer as its facts say (another name, less memory) is refused and
 * the facts forgotten, so the next probe loads every vendor again. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devices/vendor/vendor.h"
#include "devices/vendor/vendor_internal.h"
#include "vendor_facts_test.h"

static unsigned *checks, *fails;
#define CHECK(c, ...)                                                                                        \
  do {                                                                                                       \
    ++*checks;                                                                                               \
    if (!(c)) {                                                                                              \
      ++*fails;                                                                                              \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                            \
      printf(__VA_ARGS__);                                                                                   \
      printf("\n");                                                                                          \
    }                                                                                                        \
  } while (0)

static void destroy_all(hg_backend **bes, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    bes[i]->ops->destroy(bes[i]);
}

/* Facts a device does not keep (what says how): listed as stored, refused at opening, then
 * forgotten, so the next probe loads every vendor again. */
static void check_refused(hg_backend **bes, unsigned n, hg_vendor_facts *facts, const char *what) {
  hg_vendor_facts_store(facts);
  unsigned m = hg_vendor_probe(bes, 16, true);
  CHECK(m == n && !strcmp(bes[0]->device_name, facts->devices[0].device_name), "the facts (%s) are listed", what);
  if (m)
    CHECK(bes[0]->ops->open(bes[0]) == CL_DEVICE_NOT_AVAILABLE, "a device with %s is refused", what);
  destroy_all(bes, m);
  hg_vendor_facts *forgotten = hg_vendor_facts_load();
  CHECK(!forgotten, "the facts are forgotten after a refusal (%s)", what);
  free(forgotten);
}

static void test_form(const hg_vendor_facts *f, uint64_t (*random)(void)) {
  uint8_t *bytes;
  size_t size;
  CHECK(hg_vendor_facts_encode(f, &bytes, &size), "encode");
  hg_vendor_facts *back = malloc(sizeof *back);
  CHECK(hg_vendor_facts_decode(bytes, size, back) && back->num_devices == f->num_devices &&
            !strcmp(back->devices[0].device_name, f->devices[0].device_name) &&
            back->devices[0].limits.global_mem_size == f->devices[0].limits.global_mem_size,
        "round trip");
  unsigned truncated_ok = 0;
  for (size_t n = 0; n < size; n++) {
    uint8_t *copy = malloc(n ? n : 1); /* exactly n bytes: a read past them is the sanitizer's */
    memcpy(copy, bytes, n);
    truncated_ok += hg_vendor_facts_decode(copy, n, back);
    free(copy);
  }
  CHECK(!truncated_ok, "%u truncated values decoded", truncated_ok);
  uint8_t *copy = malloc(size);
  for (int round = 0; round < 20000; round++) {
    memcpy(copy, bytes, size);
    for (int k = 1 + (int)(random() % 4); k > 0; k--)
      copy[random() % size] ^= (uint8_t)(1u << (random() % 8));
    if (hg_vendor_facts_decode(copy, size, back)) /* well formed: bounded counts, terminated strings */
      for (unsigned i = 0; i < back->num_devices; i++)
        CHECK(back->devices[i].library < back->num_libs && strlen(back->devices[i].device_name) < 128 &&
                  back->devices[i].type != 0,
              "a corrupted value decoded out of form");
  }
  free(copy);
  free(back);
  free(bytes);
}

void hg_vendor_facts_tests(uint64_t (*random)(void), unsigned *checks_out, unsigned *fails_out) {
  checks = checks_out;
  fails = fails_out;
  hg_backend *bes[16];
  unsigned n = hg_vendor_probe(bes, 16, true); /* nothing cached yet in the private cache */
  for (unsigned i = 0; i < n; i++)
    CHECK(!atomic_load(&bes[i]->closed), "a first probe lists %s from facts", bes[i]->name);
  destroy_all(bes, n);
  hg_vendor_facts *f = hg_vendor_facts_load();
  CHECK(f && f->num_devices == n, "facts of %u devices cached after the probe", n);
  if (!f || !n)
    return;
  test_form(f, random);

  /* listed from the facts, closed; opened, they work */
  unsigned m = hg_vendor_probe(bes, 16, true);
  CHECK(m == n, "%u backends from facts, %u probed", m, n);
  for (unsigned i = 0; i < m; i++) {
    hg_backend *be = bes[i];
    CHECK(atomic_load(&be->closed) && !strcmp(be->device_name, f->devices[i].device_name), "%s closed", be->name);
    CHECK(be->ops->open(be) == CL_SUCCESS, "%s opens", be->name);
    atomic_store(&be->closed, false);
    hg_dev_mem *mem;
    uint32_t in[256], out[256];
    for (int k = 0; k < 256; k++)
      in[k] = (uint32_t)random();
    memset(out, 0xA5, sizeof out);
    CHECK(be->ops->mem_alloc(be, sizeof in, &mem) == CL_SUCCESS && be->ops->mem_write(be, mem, 0, sizeof in, in) == CL_SUCCESS &&
              be->ops->mem_read(be, mem, 0, sizeof out, out) == CL_SUCCESS && !memcmp(in, out, sizeof in),
          "%s: memory after opening", be->name);
    be->ops->mem_free(be, mem);
  }
  destroy_all(bes, m);

  /* facts promising less memory than the device has now (a host that grew): kept */
  hg_vendor_facts *less = malloc(sizeof *less);
  *less = *f;
  less->devices[0].limits.global_mem_size -= less->devices[0].limits.global_mem_size / 4;
  less->devices[0].limits.max_mem_alloc_size -= less->devices[0].limits.max_mem_alloc_size / 4;
  hg_vendor_facts_store(less);
  m = hg_vendor_probe(bes, 16, true);
  CHECK(m == n && atomic_load(&bes[0]->closed), "facts with less memory are listed");
  if (m)
    CHECK(bes[0]->ops->open(bes[0]) == CL_SUCCESS, "a device with more memory than its facts opens");
  destroy_all(bes, m);
  hg_vendor_facts *kept = hg_vendor_facts_load();
  CHECK(kept && kept->devices[0].limits.global_mem_size == less->devices[0].limits.global_mem_size,
        "and its facts are kept");
  free(kept);
  free(less);

  /* facts promising more memory than the device has, then facts another device answers */
  hg_vendor_facts *more = malloc(sizeof *more);
  *more = *f;
  more->devices[0].limits.global_mem_size += 1u << 20;
  check_refused(bes, n, more, "less memory than its facts");
  free(more);
  strncat(f->devices[0].device_name, " (changed)", sizeof f->devices[0].device_name - strlen(f->devices[0].device_name) - 1);
  check_refused(bes, n, f, "another name than its facts");
  m = hg_vendor_probe(bes, 16, true);
  CHECK(m == n && !atomic_load(&bes[0]->closed) && !strstr(bes[0]->device_name, "(changed)"),
        "the next probe loads the vendors again");
  destroy_all(bes, m);
  hg_vendor_facts *again = hg_vendor_facts_load();
  CHECK(again && again->num_devices == n, "and caches their facts");
  free(again);
  free(f);
}
