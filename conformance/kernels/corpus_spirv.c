/* IL mode of the corpus runner (corpus_spirv.h). The tools run as child processes with their
 * output in a file of the temporary directory, which goes into the error on failure. */
#include "corpus_spirv.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lowering/frontend.h"
#include "lowering/frontend_spirv.h"

/* Runs argv with stdout and stderr appended to log_path; true on exit status 0. */
static bool run(char *const argv[], const char *log_path) {
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND, 0600);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
      _exit(127);
    execv(argv[0], argv);
    _exit(127);
  }
  int ws;
  return pid > 0 && waitpid(pid, &ws, 0) == pid && WIFEXITED(ws) && WEXITSTATUS(ws) == 0;
}

static void *read_all(const char *path, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *b = malloc((size_t)(n > 0 ? n : 0) + 1);
  if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
    free(b);
    b = NULL;
  }
  if (b)
    b[n] = 0;
  fclose(f);
  *size = b ? (size_t)n : 0;
  return b;
}

/* The build options as separate arguments (split at blanks; the corpus quotes nothing). */
static int split_options(char *copy, char **out, int max) {
  int n = 0;
  for (char *save = NULL, *t = strtok_r(copy, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
    out[n++] = t;
  return n;
}

static bool attempt(const char *path, const char *options, const char *dir, int level, const char *log) {
  char bc[600], spv[600], olevel[8], opts[1024];
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
  char dir[] = "/tmp/hg_corpus_spirv_XXXXXX", log[600], spv[600];
  *il = NULL;
  if (!mkdtemp(dir)) {
    snprintf(err, err_size, "cannot make a temporary directory");
    return false;
  }
  snprintf(log, sizeof log, "%s/tools.log", dir);
  for (int lv = 2; lv >= 0 && !*il; lv -= 2) {
    if (!attempt(path, options, dir, lv, log))
      continue;
    snprintf(spv, sizeof spv, "%s/m%d.spv", dir, lv);
    *il = read_all(spv, size);
    *level = lv;
  }
  if (!*il) {
    size_t n;
    char *text = read_all(log, &n);
    snprintf(err, err_size, "the producer (clang, llvm-spirv, spirv-val) failed at -O2 and -O0:\n%.2000s",
             text ? text : "");
    free(text);
  }
  char cmd[700];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  if (system(cmd) != 0)
    fprintf(stderr, "cannot remove %s\n", dir);
  return *il != NULL;
}
