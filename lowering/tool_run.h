/* Running an external compiler tool (clang, spirv-val, llvm-spirv) out of process, within
 * bounds, on files in a private temporary directory: what every front end shares, so a hostile
 * or broken input can hang or crash only a child, never the application. */
#ifndef HETGPU_LOWERING_TOOL_RUN_H
#define HETGPU_LOWERING_TOOL_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Creates a private directory $TMPDIR/hetgpu-cl-<pid>-XXXXXX (0700) into dir (size >= 4096).
 * Directories of processes that are gone (killed mid-build) are removed first, once per
 * process. False with the reason appended to *log. */
bool hg_tool_tmpdir(char *dir, size_t size, char **log);

/* Removes a directory tree we created (symbolic links are not followed). */
void hg_tool_remove_tree(const char *path);

/* Writes the concatenation of up to four strings (NULL: nothing) to a new file (O_EXCL, 0600). */
int hg_tool_write_file(const char *path, const char *a, const char *b, const char *c, const char *d);
/* Writes size bytes to a new file (O_EXCL, 0600). */
int hg_tool_write_bytes(const char *path, const void *bytes, size_t size);
/* A file's bytes (malloc'd, *size set), or NULL. */
void *hg_tool_read_file(const char *path, size_t *size);

/* Runs argv[0] with argv, its stdin /dev/null, its stdout and stderr appended to *log, within
 * HETGPU_COMPILE_TIMEOUT seconds (default 300) and HETGPU_COMPILE_MEMORY MiB of address space
 * (default 8192); 0 lifts either. The child dies with the thread that waits for it. `what`
 * names the tool in messages ("the OpenCL C compiler"). Returns the wait status, or -1 (the
 * reason logged); after a timeout the child was killed and the log says so. */
int hg_tool_run(char *const argv[], const char *what, char **log, bool *timed_out);

/* ---- the parts of a run (tool_warm.c starts a tool before its arguments are known) ---- */

/* A run's bounds, read from HETGPU_COMPILE_TIMEOUT and HETGPU_COMPILE_MEMORY. */
typedef struct hg_tool_limits {
  long timeout_s, memory_mib; /* 0: none */
} hg_tool_limits;
void hg_tool_limits_read(hg_tool_limits *limits);

/* Starts argv[0] with argv, its stdin stdin_fd (-1: /dev/null), within limits->memory_mib, its
 * stdout and stderr into the pipe *out_fd reads. Returns its pid, or -1 (the reason logged). */
pid_t hg_tool_spawn(char *const argv[], int stdin_fd, const hg_tool_limits *limits, const char *what, int *out_fd,
                    char **log);
/* Appends what the child writes to *log until it ends or limits->timeout_s passes (then kills
 * it), closes out_fd, reaps the child; returns the wait status as hg_tool_run does. */
int hg_tool_collect(pid_t pid, int out_fd, const hg_tool_limits *limits, const char *what, char **log,
                    bool *timed_out);

/* Starts `tool` ahead of its next run (tool_warm.c) unless one is started already or
 * HETGPU_WARM_TOOL=0: clang spends 20-50 ms of a build loading its libraries before it reads
 * its arguments. A tool started so reads them as a response file ("@/dev/stdin"); only clang
 * and tools of LLVM's option parser may be started so. */
void hg_tool_warm_start(const char *tool);
/* hg_tool_run's run on the tool started ahead for argv[0], or HG_TOOL_NOT_WARM when there is
 * none fit to take argv (the caller then starts one). */
#define HG_TOOL_NOT_WARM (-2)
int hg_tool_run_warm(char *const argv[], const hg_tool_limits *limits, const char *what, char **log,
                     bool *timed_out);

/* True when the wait status is a clean exit 0; otherwise logs a signal death ("<what> stopped
 * on signal N") and returns false. */
bool hg_tool_succeeded(int status, bool timed_out, const char *what, char **log);

/* Replaces every occurrence of `from` in the malloc'd string *s by `to`. */
void hg_tool_replace_all(char **s, const char *from, const char *to);

#endif
