/* Tests of kernels stopped in flight in snapshot files (section KERNEL_STATE, minor 1): round
 * trips of snapshots with one and two stopped launches, files without any staying the minor-0
 * bytes of before (the committed fuzzer seeds, written by the 1.0 writer, rewrite to the same
 * bytes), the writer refusing what the reader would refuse, the version rules, and every field
 * of the section mutated, truncated and extended: structure refused with a message, data
 * accepted as it is, never a crash (run under ASan in the sanitizer build). */
#include "random_snapshot.h"
#include "test_check.h"

#include "ir/ndrange_state.h"
#include "snapshot/format.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

int test_passed, test_failed;
static char dir[256];

unsigned char *test_read_file(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(n > 0 ? (size_t)n : 1);
  if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
    free(p);
    p = NULL;
  }
  fclose(f);
  *size = (size_t)n;
  return p;
}

static uint32_t le32(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }
static uint64_t le64(const uint8_t *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }
static void put_le(uint8_t *p, uint64_t v, size_t n) {
  for (size_t i = 0; i < n; i++)
    p[i] = (uint8_t)(v >> (8 * i));
}
static uint64_t get_le(const uint8_t *p, size_t n) {
  uint64_t v = 0;
  for (size_t i = 0; i < n; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}
static void set_crc(uint8_t *d, size_t n) { put_le(d + HG_SNAP_OFF_CRC, hg_snap_file_crc(d, n), 4); }

/* The snapshot written by hg_snap_write_fd, as bytes (malloc'd). */
static uint8_t *write_bytes(const hg_snapshot *s, size_t *n) {
  int fd = memfd_create("snapshot_running_test", MFD_CLOEXEC);
  char err[512] = "";
  if (fd < 0 || hg_snap_write_fd(s, fd, err, sizeof err) != 0) {
    printf("write_fd: %s\n", err);
    abort();
  }
  off_t len = lseek(fd, 0, SEEK_END);
  uint8_t *b = malloc(len > 0 ? (size_t)len : 1);
  if (!b || pread(fd, b, (size_t)len, 0) != len)
    abort();
  close(fd);
  *n = (size_t)len;
  return b;
}

typedef enum { REJECTED, ACCEPTED, ACCEPTED_NOT_CANONICAL, SILENT } outcome;

/* Opens a copy of exactly n bytes (so ASan sees any read past them). A file that opens must
 * write back to the very same bytes: the reader then took every byte for what it is. */
static outcome try_open(const uint8_t *data, size_t n, char *err, size_t err_size) {
  uint8_t *c = malloc(n ? n : 1);
  memcpy(c, data, n);
  err[0] = 0;
  hg_snapshot_file *f = hg_snapshot_open_memory(c, n, err, err_size);
  outcome o = f ? ACCEPTED : err[0] ? REJECTED : SILENT;
  if (f) {
    size_t m;
    uint8_t *again = write_bytes(hg_snapshot_get(f), &m);
    if (m != n || memcmp(again, c, n) != 0)
      o = ACCEPTED_NOT_CANONICAL;
    free(again);
  }
  hg_snapshot_close(f);
  free(c);
  return o;
}

/* The kernel state section of a file: where its header starts (it is the last section). */
static size_t section7_at(const uint8_t *d, size_t n) {
  size_t at = HG_SNAP_HEADER_SIZE;
  while (at + HG_SNAP_SECTION_HEADER <= n) {
    if (le32(d + at) == HG_SNAP_SEC_KERNEL_STATE)
      return at;
    at = hg_snap_align(at + HG_SNAP_SECTION_HEADER + le64(d + at + 8), HG_SNAP_SECTION_ALIGN);
  }
  return 0;
}

/* The file with its kernel state payload replaced (lengths, padding, size and CRC fixed). */
static uint8_t *with_payload(const uint8_t *d, size_t n, const uint8_t *payload, size_t len, uint16_t minor,
                             uint32_t flags, size_t *out) {
  size_t at = section7_at(d, n), body = at + HG_SNAP_SECTION_HEADER;
  *out = hg_snap_align(body + len, HG_SNAP_SECTION_ALIGN);
  uint8_t *c = calloc(1, *out);
  memcpy(c, d, body);
  memcpy(c + body, payload, len);
  put_le(c + at + 4, flags, 4);
  put_le(c + at + 8, len, 8);
  put_le(c + HG_SNAP_OFF_FSIZE, *out, 8);
  put_le(c + HG_SNAP_OFF_MINOR, minor, 2);
  set_crc(c, *out);
  return c;
}

/* ---- round trips ------------------------------------------------------------------------------ */
static void test_round_trips(void) {
  for (int i = 0; i < 24; i++) {
    uint32_t nrun = 1 + i % 2;
    test_snapshot *t = test_snapshot_running(nrun);
    char path[512], err[512] = "";
    snprintf(path, sizeof path, "%s/running%d.hgsnap", dir, i);
    int rc = hg_snapshot_write(&t->s, path, err, sizeof err);
    CHECK(rc == 0, "running %d: write: %s", i, err);
    size_t n;
    uint8_t *d = rc == 0 ? test_read_file(path, &n) : NULL;
    if (!d) {
      test_snapshot_free(t);
      continue;
    }
    CHECK(get_le(d + HG_SNAP_OFF_MINOR, 2) == 1 && le32(d + HG_SNAP_OFF_NSECTIONS) == 7 && section7_at(d, n),
          "running %d: minor 1, 7 sections, the last the kernel state", i);
    CHECK(le32(d + section7_at(d, n) + 4) == 0, "running %d: the kernel state section is not optional", i);
    hg_snapshot_file *f = hg_snapshot_open(path, err, sizeof err);
    CHECK(f && hg_snapshot_equal(&t->s, hg_snapshot_get(f)), "running %d: read back equal: %s", i, err);
    if (f) {
      const hg_snapshot *r = hg_snapshot_get(f);
      CHECK(r->num_running == nrun && r->running[0].state != t->s.running[0].state &&
                r->running[0].state->num_running == t->s.running[0].state->num_running,
            "running %d: the reader's own decoded states", i);
      /* a decoded state is one of ir/ndrange_state.c's: its lookup works on it */
      const hg_ir_ndrange_state *st = r->running[0].state;
      CHECK(hg_ir_ndrange_state_group(st, st->running[0].group) != NULL, "running %d: group lookup", i);
    }
    hg_snapshot_close(f);
    f = hg_snapshot_open_memory(d, n, err, sizeof err);
    CHECK(f && hg_snapshot_equal(&t->s, hg_snapshot_get(f)), "running %d: open_memory equal: %s", i, err);
    hg_snapshot_close(f);
    size_t m;
    uint8_t *again = write_bytes(&t->s, &m);
    CHECK(m == n && memcmp(again, d, n) == 0, "running %d: writing twice gives the same bytes", i);
    free(again);
    /* a different byte in a state makes the snapshots differ */
    test_snapshot *u = test_snapshot_running(nrun);
    CHECK(!hg_snapshot_equal(&t->s, &u->s), "running %d: different states are not equal", i);
    test_snapshot_free(u);
    free(d);
    test_snapshot_free(t);
  }
}

/* Files without kernels in flight are the minor-0 files of before, byte for byte: the fuzzer's
 * seeds were written by the 1.0 writer (minor 0 ones) and must rewrite identically, as must
 * the minor-1 seeds and the minor-2 ones (seed14, seed15: images and samplers). */
static void test_minor0_unchanged(void) {
  test_snapshot *t = test_snapshot_running(0);
  size_t n;
  uint8_t *d = write_bytes(&t->s, &n);
  CHECK(get_le(d + HG_SNAP_OFF_MINOR, 2) == 0 && le32(d + HG_SNAP_OFF_NSECTIONS) == 6 && !section7_at(d, n),
        "no kernels in flight: minor 0, 6 sections");
  free(d);
  test_snapshot_free(t);
  DIR *dp = opendir(HG_SNAPSHOT_CORPUS);
  int seen = 0, same = 0;
  for (struct dirent *e; dp && (e = readdir(dp));) {
    if (!strstr(e->d_name, ".hgsnap"))
      continue;
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/%s", HG_SNAPSHOT_CORPUS, e->d_name);
    uint8_t *b = test_read_file(path, &n);
    hg_snapshot_file *f = b ? hg_snapshot_open_memory(b, n, err, sizeof err) : NULL;
    CHECK(f != NULL, "corpus %s opens: %s", e->d_name, err);
    if (f) {
      size_t m;
      uint8_t *again = write_bytes(hg_snapshot_get(f), &m);
      seen++;
      same += m == n && memcmp(again, b, n) == 0;
      free(again);
    }
    hg_snapshot_close(f);
    free(b);
  }
  if (dp)
    closedir(dp);
  CHECK(seen >= 12 && same == seen, "corpus files rewrite byte-identical (%d of %d)", same, seen);
}

/* ---- the writer refuses --------------------------------------------------------------------- */
static void expect_refused(const char *what, const hg_snapshot *s) {
  char path[512], err[512] = "";
  snprintf(path, sizeof path, "%s/refused.hgsnap", dir);
  unlink(path);
  int rc = hg_snapshot_write(s, path, err, sizeof err);
  CHECK(rc == -1 && err[0] && access(path, F_OK) != 0, "writer refuses %s (%s)", what, err);
}

/* The first RUNNING work-item of k_loop's state at a safe point with live values, or NULL. */
static hg_ir_group_state *item_with_values(hg_ir_ndrange_state *st, uint32_t *item) {
  for (uint32_t g = 0; g < st->num_running; g++)
    for (uint32_t i = 0; i < st->running[g].num_items; i++)
      if (st->running[g].safepoint[i] == 1 || st->running[g].safepoint[i] == 2) {
        *item = i;
        return &st->running[g];
      }
  return NULL;
}

static void test_writer_refuses(void) {
  test_snapshot *t = test_snapshot_running(2);
  hg_snap_running *r = t->running;
  hg_snap_kernel_arg *a = (hg_snap_kernel_arg *)r[0].args, saved_arg;
  hg_ir_ndrange_state *st = t->states[0];
  char err[512];
  CHECK(hg_snap_validate(&t->s, err, sizeof err), "the test snapshot is valid: %s", err);
  r[0].queue = 2;
  expect_refused("a queue id out of range", &t->s);
  r[0].queue = 1;
  r[0].kernel = 2;
  expect_refused("a kernel id out of range", &t->s);
  r[0].kernel = 0;
  expect_refused("a state of another kernel than the entry's", &t->s);
  r[0].kernel = 1;
  r[0].num_args = 3;
  expect_refused("an argument count that is not the kernel's", &t->s);
  r[0].num_args = 4;
  saved_arg = a[2];
  a[2] = (hg_snap_kernel_arg){HG_SNAP_ARG_UNSET, HG_SNAP_NONE, 0, NULL};
  expect_refused("an unset launch argument", &t->s);
  a[2] = (hg_snap_kernel_arg){HG_SNAP_ARG_VALUE, HG_SNAP_NONE, 8, saved_arg.value};
  expect_refused("a by-value argument of the wrong size", &t->s);
  a[2] = (hg_snap_kernel_arg){HG_SNAP_ARG_LOCAL, HG_SNAP_NONE, 4, NULL};
  expect_refused("local memory for a by-value parameter", &t->s);
  a[2] = saved_arg;
  saved_arg = a[0];
  a[0] = (hg_snap_kernel_arg){HG_SNAP_ARG_BUFFER, 3, 0, NULL};
  expect_refused("a buffer id out of range", &t->s);
  a[0] = saved_arg;
  saved_arg = a[3];
  a[3].size++;
  expect_refused("local memory that is not the state's (the last __local argument one byte larger)", &t->s);
  a[3].size = 0;
  expect_refused("a __local argument of 0 bytes", &t->s);
  a[3] = saved_arg;
  st->local_bytes--;
  expect_refused("local_bytes one short", &t->s);
  st->local_bytes++;
  st->value_stride += 8;
  expect_refused("a value stride that is not the layout's", &t->s);
  st->value_stride -= 8;
  char *name = st->kernel;
  st->kernel = "k_small";
  expect_refused("a state naming another kernel", &t->s);
  st->kernel = name;
  r[0].state = NULL;
  expect_refused("no state", &t->s);
  r[0].state = st;
  uint32_t item;
  hg_ir_group_state *g = item_with_values(st, &item);
  CHECK(g != NULL, "the state has a work-item in the loop");
  if (g) {
    uint32_t sp = g->safepoint[item];
    g->safepoint[item] = 3; /* the loop over a loaded pointer: not a place to stop */
    expect_refused("a work-item at a safe point that is not stoppable", &t->s);
    g->safepoint[item] = 4;
    expect_refused("a safe point id out of range", &t->s);
    g->safepoint[item] = sp;
    /* %12 (offset 8) is based on argument 1, a __local buffer of a[1].size bytes */
    uint8_t *rec = g->values + (size_t)item * st->value_stride, saved[8];
    memcpy(saved, rec + 8, 8);
    uint64_t past = a[1].size + 1;
    memcpy(rec + 8, &past, 8);
    expect_refused("a pointer past the end of a __local argument", &t->s);
    past = a[1].size;
    memcpy(rec + 8, &past, 8);
    CHECK(hg_snap_validate(&t->s, err, sizeof err), "a pointer one past the end of a __local argument: %s", err);
    memcpy(rec + 8, saved, 8);
    /* %11 (offset 0) is based on argument 0, a buffer (or NULL) */
    if (a[0].buffer != HG_SNAP_NONE) {
      memcpy(saved, rec, 8);
      past = t->buffers[a[0].buffer].size + 1;
      memcpy(rec, &past, 8);
      expect_refused("a pointer past the end of a buffer argument", &t->s);
      memcpy(rec, saved, 8);
    }
  }
  uint8_t status = st->group_status[0];
  st->group_status[0] = 3;
  expect_refused("a group status of 3", &t->s);
  st->group_status[0] = status;
  st->global_offset[0] = UINT64_MAX - 5;
  expect_refused("a global offset + size that overflows", &t->s);
  st->global_offset[0] = 0;
  CHECK(hg_snap_validate(&t->s, err, sizeof err), "restored: valid again: %s", err);
  t->s.running = NULL;
  expect_refused("a running count without its array", &t->s);
  t->s.running = r;
  test_snapshot_free(t);
}

/* ---- versions ----------------------------------------------------------------------------------- */
static void test_versions(void) {
  test_snapshot *t = test_snapshot_running(1);
  size_t n, m;
  uint8_t *d = write_bytes(&t->s, &n);
  size_t at = section7_at(d, n), body = at + HG_SNAP_SECTION_HEADER, len = le64(d + at + 8);
  char err[512];
  uint8_t *c = with_payload(d, n, d + body, len, 0, 0, &m);
  CHECK(try_open(c, m, err, sizeof err) == REJECTED && strstr(err, "minor version 0"),
        "kernels in flight in a minor-0 file rejected: %s", err);
  free(c);
  c = with_payload(d, n, d + body, len, 1, HG_SNAP_SECTION_OPTIONAL, &m);
  CHECK(try_open(c, m, err, sizeof err) == REJECTED, "the kernel state section marked optional rejected: %s", err);
  free(c);
  uint8_t *longer = calloc(1, len + 5);
  memcpy(longer, d + body, len);
  longer[len] = 0x5A;
  c = with_payload(d, n, longer, len + 5, 1, 0, &m);
  CHECK(try_open(c, m, err, sizeof err) == REJECTED, "own minor: trailing bytes in the kernel state rejected: %s",
        err);
  free(c);
  /* a newer minor may add fields at the end of the payload: this reader ignores them */
  c = with_payload(d, n, longer, len + 5, HG_SNAP_VERSION_MINOR + 1, 0, &m);
  hg_snapshot_file *f = hg_snapshot_open_memory(c, m, err, sizeof err);
  CHECK(f && hg_snapshot_equal(&t->s, hg_snapshot_get(f)), "newer minor: trailing kernel state fields ignored: %s",
        err);
  hg_snapshot_close(f);
  free(c);
  free(longer);
  uint8_t zero[4] = {0};
  c = with_payload(d, n, zero, 4, 1, 0, &m);
  CHECK(try_open(c, m, err, sizeof err) == REJECTED, "a kernel state section without kernels rejected: %s", err);
  free(c);
  free(d);
  /* a minor-1 file without kernels in flight is valid too (this writer writes it as minor 0) */
  test_snapshot *z = test_snapshot_running(0);
  d = write_bytes(&z->s, &n);
  put_le(d + HG_SNAP_OFF_MINOR, 1, 2);
  set_crc(d, n);
  CHECK(try_open(d, n, err, sizeof err) == ACCEPTED_NOT_CANONICAL, "minor 1 without kernels in flight opens: %s",
        err);
  free(d);
  test_snapshot_free(z);
  test_snapshot_free(t);
}

/* ---- every field of the section ------------------------------------------------------------- */
/* STRUCT: any change of the value is refused. ANY: some changes make another valid file
 * (a different queue, offset, status, safe point...). DATA: bytes taken as they are. */
typedef enum { STRUCT, ANY, DATA } field_class;
typedef struct field {
  size_t at, size; /* absolute in the file */
  field_class cls;
  const char *name;
} field;
typedef struct field_list {
  field *f;
  size_t n, cap;
  const uint8_t *d;
  size_t at; /* walking position */
} field_list;

static uint64_t add_field(field_list *l, size_t size, field_class cls, const char *name) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 256;
    l->f = realloc(l->f, l->cap * sizeof *l->f);
  }
  l->f[l->n++] = (field){l->at, size, cls, name};
  uint64_t v = size <= 8 ? get_le(l->d + l->at, size) : 0;
  l->at += size;
  return v;
}

/* The test's own reading of the section (docs/snapshot-format.md), field by field. */
static void walk_args(field_list *l) {
  uint32_t n = (uint32_t)add_field(l, 4, STRUCT, "num_args");
  for (uint32_t a = 0; a < n; a++) {
    uint32_t kind = (uint32_t)add_field(l, 4, STRUCT, "arg kind");
    add_field(l, 4, kind == HG_SNAP_ARG_BUFFER ? ANY : STRUCT, "arg buffer");
    uint64_t size = add_field(l, 8, kind == HG_SNAP_ARG_LOCAL ? ANY : STRUCT, "arg size");
    if (kind == HG_SNAP_ARG_VALUE && size)
      add_field(l, size, DATA, "arg value");
  }
}

static void walk_state(field_list *l) {
  uint32_t len = (uint32_t)add_field(l, 4, STRUCT, "kernel name length");
  add_field(l, len + 1, STRUCT, "kernel name");
  add_field(l, 4, ANY, "work_dim");
  for (int i = 0; i < 9; i++)
    add_field(l, 8, ANY, i < 3 ? "global offset" : i < 6 ? "global size" : "local size");
  uint64_t groups = add_field(l, 8, STRUCT, "num_groups");
  for (uint64_t g = 0; g < groups; g++)
    add_field(l, 1, ANY, "group status");
  uint32_t stride = (uint32_t)add_field(l, 4, STRUCT, "value_stride");
  uint32_t priv = (uint32_t)add_field(l, 4, STRUCT, "private_size");
  uint32_t local = (uint32_t)add_field(l, 4, STRUCT, "local_bytes");
  uint32_t nrun = (uint32_t)add_field(l, 4, STRUCT, "running groups");
  for (uint32_t r = 0; r < nrun; r++) {
    add_field(l, 8, STRUCT, "group index");
    uint32_t items = (uint32_t)add_field(l, 4, STRUCT, "num_items");
    for (uint32_t i = 0; i < items; i++)
      add_field(l, 4, ANY, "safe point");
    for (uint32_t i = 0; i < items && stride; i++)
      add_field(l, stride, ANY, "value record"); /* pointers among the values are checked */
    for (uint32_t i = 0; i < items && priv; i++)
      add_field(l, priv, DATA, "private frame");
    if (local)
      add_field(l, local, DATA, "local memory");
  }
}

static field_list walk_section(const uint8_t *d, size_t n) {
  field_list l = {.d = d, .at = section7_at(d, n) + HG_SNAP_SECTION_HEADER};
  uint32_t count = (uint32_t)add_field(&l, 4, STRUCT, "running count");
  for (uint32_t i = 0; i < count; i++) {
    add_field(&l, 4, ANY, "queue");
    add_field(&l, 4, STRUCT, "kernel");
    walk_args(&l);
    walk_state(&l);
  }
  return l;
}

typedef struct tally {
  int refused_struct, struct_total, accepted_any, any_total, data_total;
  int bad; /* a crash-free failure: silent rejection, non-canonical acceptance, data refused */
} tally;

static void expect(tally *t, const field *f, const uint8_t *c, size_t n, bool must_reject, bool must_accept) {
  char err[512];
  outcome o = try_open(c, n, err, sizeof err);
  bool wrong = o == SILENT || o == ACCEPTED_NOT_CANONICAL || (must_reject && o != REJECTED) ||
               (must_accept && o != ACCEPTED);
  if (wrong && t->bad++ < 10)
    printf("  %s at %zu: outcome %d (%s)\n", f->name, f->at, (int)o, err);
}

/* Mutations of one field, the checksum made to match each time. */
static void mutate_field(tally *t, const field *f, const uint8_t *d, size_t n, uint8_t *c) {
  if (f->cls == DATA) {
    memcpy(c, d, n);
    for (size_t i = 0; i < f->size; i++)
      c[f->at + i] = (uint8_t)test_rand();
    set_crc(c, n);
    expect(t, f, c, n, false, true);
    t->data_total++;
    return;
  }
  /* integers: +1, -1, all bits flipped, 0, the largest; any field: each byte's top bit */
  uint64_t v = f->size <= 8 ? get_le(d + f->at, f->size) : 0;
  uint64_t vals[5] = {v + 1, v - 1, ~v, 0, UINT64_MAX};
  for (int k = 0; k < (f->size <= 8 ? 5 : 0); k++) {
    memcpy(c, d, n);
    put_le(c + f->at, vals[k], f->size);
    if (get_le(c + f->at, f->size) == v)
      continue; /* no change (0 of a zero field...) */
    set_crc(c, n);
    expect(t, f, c, n, f->cls == STRUCT, false);
    f->cls == STRUCT ? t->struct_total++ : t->any_total++;
  }
  for (size_t i = 0; i < f->size && i < 16; i++) {
    memcpy(c, d, n);
    c[f->at + i] ^= 0x80;
    set_crc(c, n);
    expect(t, f, c, n, f->cls == STRUCT, false);
    f->cls == STRUCT ? t->struct_total++ : t->any_total++;
  }
}

/* Mutations with a known answer among the ANY fields. */
static void mutate_targeted(tally *t, const field_list *l, const uint8_t *d, size_t n, uint8_t *c) {
  for (size_t i = 0; i < l->n; i++) {
    const field *f = &l->f[i];
    static const uint64_t safepoints[2] = {3, 4}; /* k_loop: not stoppable; no such safe point */
    if (!strcmp(f->name, "queue")) {
      memcpy(c, d, n);
      put_le(c + f->at, 2, 4); /* the snapshot has two queues */
      set_crc(c, n);
      expect(t, f, c, n, true, false);
    } else if (!strcmp(f->name, "group status")) {
      memcpy(c, d, n);
      c[f->at] = d[f->at] == HG_GROUP_RUNNING ? HG_GROUP_DONE : 3;
      set_crc(c, n);
      expect(t, f, c, n, true, false);
      /* NOT_STARTED <-> DONE: another valid state */
      if (d[f->at] != HG_GROUP_RUNNING) {
        c[f->at] = d[f->at] ^ 1;
        set_crc(c, n);
        expect(t, f, c, n, false, true);
      }
    } else if (!strcmp(f->name, "safe point") && le32(d + f->at) != UINT32_MAX && le32(d + f->at) != 0) {
      /* k_loop's work-items past entry: its safe points 3 and 4 are refused */
      for (int k = 0; k < 2; k++) {
        memcpy(c, d, n);
        put_le(c + f->at, safepoints[k], 4);
        set_crc(c, n);
        expect(t, f, c, n, true, false);
      }
      /* finished: valid unless others of its group wait at a barrier (hg_ir_ndrange_state_check
       * may come to refuse that), so no answer is expected but a clean one */
      memcpy(c, d, n);
      put_le(c + f->at, UINT32_MAX, 4);
      set_crc(c, n);
      expect(t, f, c, n, false, false);
    } else if (!strcmp(f->name, "global offset")) {
      /* a used dimension takes any offset, an unused one only 0 (the test's ranges have
       * global sizes > 1 in used dimensions; the global size is 3 fields on) */
      bool used = le64(d + f->at + 24) != 1;
      memcpy(c, d, n);
      put_le(c + f->at, get_le(d + f->at, 8) ^ 0x1234, 8);
      set_crc(c, n);
      expect(t, f, c, n, !used, used);
    }
  }
}

static void test_mutations(void) {
  test_snapshot *t = test_snapshot_running(2);
  size_t n;
  uint8_t *d = write_bytes(&t->s, &n);
  field_list l = walk_section(d, n);
  size_t at = section7_at(d, n), body = at + HG_SNAP_SECTION_HEADER, len = le64(d + at + 8);
  CHECK(l.at == body + len, "the test's walk of the section ends at its end (%zu, %zu)", l.at, body + len);
  printf("  kernel state section: %zu bytes, %zu fields\n", len, l.n);
  uint8_t *c = malloc(n);
  tally ty = {0};
  for (size_t i = 0; i < l.n; i++)
    mutate_field(&ty, &l.f[i], d, n, c);
  mutate_targeted(&ty, &l, d, n, c);
  printf("  field mutations: %d structural, %d other, %d data\n", ty.struct_total, ty.any_total, ty.data_total);
  CHECK(ty.bad == 0, "field mutations: %d structural, %d other, %d data: %d wrong", ty.struct_total, ty.any_total,
        ty.data_total, ty.bad);
  free(c);
  /* the payload cut at every length: refused (a field or count goes past the end) */
  char err[512];
  int wrong = 0;
  for (size_t cut = 0; cut < len; cut++) {
    size_t m;
    c = with_payload(d, n, d + body, cut, 1, 0, &m);
    wrong += try_open(c, m, err, sizeof err) != REJECTED;
    free(c);
  }
  CHECK(wrong == 0, "every truncation of the kernel state payload refused (%d not)", wrong);
  /* extended: after every field one byte more (what follows is read one byte off), and at the
   * end; never a crash, refused at the end (own minor), canonical when accepted */
  wrong = 0;
  int refused = 0;
  uint8_t *longer = malloc(len + 1);
  for (size_t i = 0; i <= l.n; i++) {
    size_t split = (i < l.n ? l.f[i].at : body + len) - body, m;
    memcpy(longer, d + body, split);
    longer[split] = (uint8_t)test_rand();
    memcpy(longer + split + 1, d + body + split, len - split);
    c = with_payload(d, n, longer, len + 1, 1, 0, &m);
    outcome o = try_open(c, m, err, sizeof err);
    wrong += o == SILENT || o == ACCEPTED_NOT_CANONICAL || (i == l.n && o != REJECTED);
    refused += o == REJECTED;
    free(c);
  }
  CHECK(wrong == 0, "a byte inserted at each field boundary: no crash, no silent or odd acceptance (%d wrong, %d of "
                    "%zu refused)",
        wrong, refused, l.n + 1);
  free(longer);
  /* whole-file truncations */
  wrong = 0;
  for (size_t cut = 0; cut < n; cut += 1 + cut / 64)
    wrong += try_open(d, cut, err, sizeof err) != REJECTED;
  CHECK(wrong == 0, "truncated files refused (%d not)", wrong);
  free(l.f);
  free(d);
  test_snapshot_free(t);
}

/* Forged counts must not make the reader allocate for them: each refused, quickly. */
static void test_forged_counts(void) {
  test_snapshot *t = test_snapshot_running(1);
  size_t n;
  uint8_t *d = write_bytes(&t->s, &n);
  field_list l = walk_section(d, n);
  uint8_t *c = malloc(n);
  static const char *const counts[] = {"running count", "num_args", "kernel name length", "num_groups",
                                       "running groups", "num_items", "value_stride", "private_size",
                                       "local_bytes", "local size"};
  int wrong = 0, tried = 0;
  for (size_t i = 0; i < l.n; i++)
    for (size_t k = 0; k < sizeof counts / sizeof *counts; k++) {
      if (strcmp(l.f[i].name, counts[k]) != 0)
        continue;
      static const uint64_t big[4] = {0x7FFFFFFF, 0xFFFFFFFE, 1ull << 40, 1ull << 62};
      for (int b = 0; b < 4; b++) {
        memcpy(c, d, n);
        put_le(c + l.f[i].at, big[b], l.f[i].size);
        set_crc(c, n);
        char err[512];
        wrong += try_open(c, n, err, sizeof err) != REJECTED;
        tried++;
      }
    }
  CHECK(tried > 30 && wrong == 0, "forged counts and sizes refused (%d of %d not)", wrong, tried);
  free(c);
  free(l.f);
  free(d);
  test_snapshot_free(t);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  const char *tmp = getenv("TMPDIR");
  snprintf(dir, sizeof dir, "%s/hgsnap-running-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return 1;
  }
  uint64_t seed = getenv("HG_TEST_SEED") ? strtoull(getenv("HG_TEST_SEED"), NULL, 0) : (uint64_t)time(NULL);
  printf("seed %llu (HG_TEST_SEED to repeat)\n", (unsigned long long)seed);
  test_seed(seed);
  test_round_trips();
  test_minor0_unchanged();
  test_writer_refuses();
  test_versions();
  test_mutations();
  test_forged_counts();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    printf("could not remove %s\n", dir);
  printf("%d passed, %d failed\n", test_passed, test_failed);
  return test_failed ? 1 : 0;
}
