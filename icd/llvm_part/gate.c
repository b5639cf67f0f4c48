/* libhetgpu.so's side of the LLVM part (llvm_part.h): each function of the interface loads the
 * module once, on first use, and calls it. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "common/driver_file.h"
#include "icd/llvm_part/llvm_part.h"

static const hg_llvm_part *_Atomic part; /* set once by part_load */
static char part_error[4608]; /* why the module could not be loaded */
static pthread_once_t part_once = PTHREAD_ONCE_INIT;

static void part_load(void) {
  char path[4096];
  if (!hg_driver_file(HG_LLVM_PART_FILE, path, sizeof path)) {
    snprintf(part_error, sizeof part_error, "the LLVM part: the driver's own file is not known");
    return;
  }
  /* never unloaded: LLVM cannot be torn down and set up again in one process */
  void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  hg_llvm_part_entry_fn entry = h ? (hg_llvm_part_entry_fn)dlsym(h, HG_LLVM_PART_ENTRY) : NULL;
  const hg_llvm_part *p = entry ? entry(hg_log_mask, hg_log_write) : NULL;
  if (!h || !entry)
    snprintf(part_error, sizeof part_error, "the LLVM part %.4000s could not be loaded: %.500s", path, dlerror());
  else if (!p || p->version != HG_LLVM_PART_VERSION || p->size != sizeof *p)
    snprintf(part_error, sizeof part_error, "the LLVM part %.4000s is of another build of the driver", path);
  else
    part = p;
  HG_LOG(HG_LOG_COMPILE, "%s", part ? "the LLVM part loaded" : part_error);
}

static const hg_llvm_part *llvm_part(void) {
  hg_log_init();
  pthread_once(&part_once, part_load);
  return part;
}

static void hg_llvm_part_missing(char **log) { hg_log_append(log, "error: %s", part_error); }

static void hg_llvm_part_missing_text(char *err, size_t err_size) {
  if (err_size)
    snprintf(err, err_size, "%s", part_error);
}

#define HG_LLVM_PART_GATE(ret, name, params, args, fail) \
  ret name params {                                      \
    const hg_llvm_part *p = llvm_part();                 \
    if (!p)                                              \
      return fail;                                       \
    return p->name args;                                 \
  }
/* not loading: each follows something only the module does (llvm_part.h) */
#define HG_LLVM_PART_VOID_GATE(name, params, args) \
  void name params {                               \
    const hg_llvm_part *p = part;                  \
    if (p)                                         \
      p->name args;                                \
  }
HG_LLVM_PART_FUNCTIONS(HG_LLVM_PART_GATE, HG_LLVM_PART_VOID_GATE)
