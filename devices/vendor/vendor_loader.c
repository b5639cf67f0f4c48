/* The private mini-loader: finds the vendor OpenCL libraries the way an ICD loader does, but on
 * its own, because calling libOpenCL from inside our ICD deadlocks or recurses (NOTES.md 1).
 *
 * HETGPU_VENDORS (default /etc/OpenCL/vendors) names a directory of .icd files, one .icd file,
 * or a library path; several may be joined with ':'. The libraries are listed first and each
 * is dlopen'ed RTLD_NOW | RTLD_LOCAL only when its platforms are asked for (a vendor whose
 * facts are cached is not loaded until a context first uses it: vendor_facts.c), then kept
 * loaded for the life of the process. hetGPU's own library is skipped. Its platforms are
 * reached through clGetExtensionFunctionAddress("clIcdGetPlatformIDsKHR"); we never call
 * clIcdSetPlatformDispatchDataKHR (the application's loader owns that). */
#include <dirent.h>
#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <CL/cl_ext.h>

#include "devices/vendor/vendor_internal.h"
#include "common/log.h"

#define MAX_PLATFORMS 32
#define DEFAULT_VENDORS_DIR "/etc/OpenCL/vendors"

typedef void *(CL_API_CALL *get_extension_fn)(const char *name);

static struct {
  char *name;          /* as the .icd or HETGPU_VENDORS named it */
  void *handle;        /* never closed: vendor objects live as long as the process */
  bool tried;          /* hg_vendor_library_platforms ran for it */
  unsigned first, num; /* its platforms in platforms[] */
  char file[4096];     /* the file the dynamic linker loaded ("" when not loaded) */
} libs[HG_VENDOR_MAX_LIBS];
static unsigned num_libs;
static cl_platform_id platforms[MAX_PLATFORMS];
/* where each came from, for a child process that reaches the same platform (vendor_forms_child.c) */
static struct {
  unsigned library; /* in libs[] */
  unsigned index;   /* its place among the library's platforms */
} origins[MAX_PLATFORMS];
static unsigned num_platforms;
static pthread_once_t list_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t open_lock = PTHREAD_MUTEX_INITIALIZER;

/* Our own library, to skip it: its handle (dlopen RTLD_NOLOAD of the file dladdr names) and
 * its file identity (for .icd entries that name it by path). */
static struct {
  void *handle;
  dev_t dev;
  ino_t ino;
  bool have_inode;
} self;

static void find_self(void) {
  Dl_info info;
  if (!dladdr((void *)&hg_vendor_libraries, &info) || !info.dli_fname)
    return;
  self.handle = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
  struct stat st;
  if (info.dli_fname[0] && stat(info.dli_fname, &st) == 0) {
    self.dev = st.st_dev;
    self.ino = st.st_ino;
    self.have_inode = true;
  }
}

static bool is_self_file(const char *path) {
  struct stat st;
  return self.have_inode && stat(path, &st) == 0 && st.st_dev == self.dev && st.st_ino == self.ino;
}

/* The library an .icd file names: its content, trimmed of surrounding white space. */
static bool read_icd(const char *icd_path, char *lib, size_t lib_size) {
  FILE *f = fopen(icd_path, "r");
  if (!f) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: cannot read %s", icd_path);
    return false;
  }
  size_t n = fread(lib, 1, lib_size - 1, f);
  fclose(f);
  lib[n] = '\0';
  char *start = lib;
  while (*start == ' ' || *start == '\t' || *start == '\n' || *start == '\r')
    start++;
  char *end = start + strlen(start);
  while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
    *--end = '\0';
  memmove(lib, start, (size_t)(end - start) + 1);
  return lib[0] != '\0';
}

static void add_platforms_of(void *handle, unsigned library) {
  const char *lib = libs[library].name;
  get_extension_fn get_ext = (get_extension_fn)dlsym(handle, "clGetExtensionFunctionAddress");
  clIcdGetPlatformIDsKHR_fn get_ids = NULL;
  if (get_ext)
    get_ids = (clIcdGetPlatformIDsKHR_fn)get_ext("clIcdGetPlatformIDsKHR");
  if (!get_ids)
    get_ids = (clIcdGetPlatformIDsKHR_fn)dlsym(handle, "clIcdGetPlatformIDsKHR");
  if (!get_ids) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: %s has no clIcdGetPlatformIDsKHR", lib);
    return;
  }
  cl_uint n = 0;
  cl_int err = get_ids(0, NULL, &n);
  if (err != CL_SUCCESS || n == 0) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: %s: no platforms (error %d)", lib, err);
    return;
  }
  cl_platform_id *ids = calloc(n, sizeof *ids);
  if (!ids)
    return;
  err = get_ids(n, ids, NULL);
  if (err != CL_SUCCESS) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: %s: clIcdGetPlatformIDsKHR failed (%d)", lib, err);
    free(ids);
    return;
  }
  for (cl_uint i = 0; i < n && num_platforms < MAX_PLATFORMS; i++) {
    if (!ids[i] || !VCL(ids[i]) || !VCL(ids[i])->clGetPlatformInfo)
      continue;
    char name[128] = "";
    VCL(ids[i])->clGetPlatformInfo(ids[i], CL_PLATFORM_NAME, sizeof name - 1, name, NULL);
    if (!strcmp(name, "hetGPU")) /* another copy of ourselves, installed elsewhere */
      continue;
    HG_LOG(HG_LOG_BACKEND, "vendor loader: %s: platform \"%s\"", lib, name);
    origins[num_platforms].library = library;
    origins[num_platforms].index = i;
    platforms[num_platforms++] = ids[i];
  }
  free(ids);
}

/* Lists a library (opened later, by hg_vendor_library_platforms); each name once. */
static void list_library(const char *lib) {
  if (num_libs == HG_VENDOR_MAX_LIBS)
    return;
  if (strchr(lib, '/') && is_self_file(lib)) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: skipping %s (hetGPU itself)", lib);
    return;
  }
  for (unsigned i = 0; i < num_libs; i++)
    if (!strcmp(libs[i].name, lib))
      return;
  if ((libs[num_libs].name = strdup(lib)))
    num_libs++;
}

/* dlopens library i and adds its platforms (open_lock held). */
static void open_library(unsigned i) {
  const char *lib = libs[i].name;
  libs[i].tried = true;
  libs[i].first = num_platforms;
  void *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: dlopen %s failed: %s", lib, dlerror());
    return;
  }
  struct link_map *map = NULL; /* the file, also of one skipped: the vendors' facts name it */
  if (dlinfo(handle, RTLD_DI_LINKMAP, &map) == 0 && map && map->l_name)
    snprintf(libs[i].file, sizeof libs[i].file, "%s", map->l_name);
  const char *skip = self.handle && handle == self.handle ? "hetGPU itself" : NULL;
  for (unsigned j = 0; j < num_libs && !skip; j++)
    if (j != i && libs[j].handle == handle)
      skip = "named twice";
  if (skip) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: skipping %s (%s)", lib, skip);
    dlclose(handle);
    return;
  }
  libs[i].handle = handle;
  HG_LOG(HG_LOG_BACKEND, "vendor loader: loaded %s (%s)", lib, libs[i].file);
  add_platforms_of(handle, i);
  libs[i].num = num_platforms - libs[i].first;
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.icd in dir, in name order so the backend list is stable from run to run. */
static void load_directory(const char *dir) {
  DIR *d = opendir(dir);
  if (!d) {
    HG_LOG(HG_LOG_BACKEND, "vendor loader: cannot open %s", dir);
    return;
  }
  char *names[64];
  unsigned n = 0;
  for (struct dirent *e; (e = readdir(d)) && n < 64;) {
    size_t len = strlen(e->d_name);
    if (len > 4 && !strcmp(e->d_name + len - 4, ".icd"))
      if ((names[n] = strdup(e->d_name)))
        n++;
  }
  closedir(d);
  qsort(names, n, sizeof names[0], compare_names);
  for (unsigned i = 0; i < n; i++) {
    char path[4096], lib[4096];
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    if (read_icd(path, lib, sizeof lib))
      list_library(lib);
    free(names[i]);
  }
}

static void load_entry(const char *entry) {
  struct stat st;
  size_t len = strlen(entry);
  if (stat(entry, &st) == 0 && S_ISDIR(st.st_mode)) {
    load_directory(entry);
  } else if (len > 4 && !strcmp(entry + len - 4, ".icd")) {
    char lib[4096];
    if (read_icd(entry, lib, sizeof lib))
      list_library(lib);
  } else {
    list_library(entry);
  }
}

static void list_all(void) {
  hg_log_init();
  find_self();
  const char *spec = getenv("HETGPU_VENDORS");
  if (!spec || !*spec)
    spec = DEFAULT_VENDORS_DIR;
  char *copy = strdup(spec);
  if (!copy)
    return;
  for (char *save = NULL, *entry = strtok_r(copy, ":", &save); entry; entry = strtok_r(NULL, ":", &save))
    load_entry(entry);
  free(copy);
  if (self.handle) /* drop the reference RTLD_NOLOAD took; we stay loaded anyway */
    dlclose(self.handle);
  HG_LOG(HG_LOG_BACKEND, "vendor loader: %u librar%s listed", num_libs, num_libs == 1 ? "y" : "ies");
}

unsigned hg_vendor_libraries(void) {
  pthread_once(&list_once, list_all);
  return num_libs;
}

const char *hg_vendor_library_name(unsigned library) {
  return library < hg_vendor_libraries() ? libs[library].name : NULL;
}

unsigned hg_vendor_library_platforms(unsigned library, cl_platform_id *out, unsigned max) {
  if (library >= hg_vendor_libraries())
    return 0;
  pthread_mutex_lock(&open_lock);
  if (!libs[library].tried)
    open_library(library);
  unsigned n = libs[library].num < max ? libs[library].num : max;
  memcpy(out, platforms + libs[library].first, n * sizeof *out);
  pthread_mutex_unlock(&open_lock);
  return n;
}

bool hg_vendor_library_file(unsigned library, char *out, size_t size) {
  pthread_mutex_lock(&open_lock);
  bool known = library < num_libs && libs[library].file[0];
  if (known)
    snprintf(out, size, "%s", libs[library].file);
  pthread_mutex_unlock(&open_lock);
  return known;
}

bool hg_vendor_platform_origin(cl_platform_id platform, const char **library, unsigned *index) {
  pthread_mutex_lock(&open_lock);
  bool found = false;
  for (unsigned i = 0; i < num_platforms && !found; i++)
    if (platforms[i] == platform) {
      *library = libs[origins[i].library].name;
      *index = origins[i].index;
      found = true;
    }
  pthread_mutex_unlock(&open_lock);
  return found;
}
