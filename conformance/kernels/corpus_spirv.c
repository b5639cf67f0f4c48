/* IL mode of the corpus runner (corpus_spirv.h). The tools run through the driver's own bounded
 * runner (lowering/tool_run.c), in one of its private temporary directories; their output goes
 * into the error on failure. */
#include "corpus_spirv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lowering/frontend.h"
#include "lowering/frontend_spirv.h"
#include "lowering/tool_run.h"

/* Runs argv (bounded like the driver's own tools) with its output appended to *log. */
static bool run(char *const argv[], char **log) {
  bool timed_out;
  int status = hg_tool_run(argv, argv[0], log, &timed_out);
  return hg_tool_succeeded(status, timed_out, argv[0], log);
}

/* The build options as separate arguments (split at blanks; the corpus quotes nothing). */
static int split_options(char *copy, char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
    out[n++] = t;
  return n;
}

static bool attempt(const char *path, const char *options, const char *dir, int level, char **log) {
  char bc[4200], spv[4200], olevel[8], opts[1024];
  snprintf(bc, sizeof bc, "%s/m%d.bc", dir, level);
  snprintf(spv, sizeof spv, "%s/m%d.spv", dir, level);
  snprintf(olevel, sizeof olevel, "-O%d", level);
  snprintf(opts, sizeof opts, "%s", options ? options : "");
  char *argv[64] = {(char *)hg_frontend_clang_path(), "-target", "spir64", olevel, "-emit-llvm", "-c", "-Xclang",
                    "-finclude-default-header"};
  int k = 8;
  k += split_options(opts, argv + k, 48);
  argv[k++] = (char *)path;
  argv[k++] = "-o";
  argv[k++] = bc;
  argv[k] = NULL;
  char *xl[] = {(char *)hg_frontend_llvm_spirv_path(), bc, "-o", spv, NULL};
  char *val[] = {(char *)hg_frontend_spirv_val_path(), spv, NULL};
  return run(argv, log) && run(xl, log) && run(val, log);
}

bool corpus_to_spirv(const char *path, const char *options, void **il, size_t *size, int *level, char *err,
                     size_t err_size) {
  char dir[4096], spv[4200];
  char *log = NULL;
  *il = NULL;
  if (!hg_tool_tmpdir(dir, sizeof dir, &log)) {
    snprintf(err, err_size, "%s", log ? log : "cannot make a temporary directory");
    free(log);
    return false;
  }
  for (int lv = 2; lv >= 0 && !*il; lv -= 2) {
    if (!attempt(path, options, dir, lv, &log))
      continue;
    snprintf(spv, sizeof spv, "%s/m%d.spv", dir, lv);
    *il = hg_tool_read_file(spv, size);
    *level = lv;
  }
  if (!*il)
    snprintf(err, err_size, "the producer (clang, llvm-spirv, spirv-val) failed at -O2 and -O0:\n%.2000s",
             log ? log : "");
  free(log);
  hg_tool_remove_tree(dir);
  return *il != NULL;
}
