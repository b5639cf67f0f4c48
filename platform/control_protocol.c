/* The control socket's request parser (docs/control-socket.md). Everything a client sends is
 * untrusted: the line's length, its characters, each word and each number are checked here
 * before the listener acts on any of it. */
#include "platform/control_protocol.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 5 /* checkpoint <id> <path> <timeout> <at=...> */

bool hg_ctl_parse_u64(const char *text, uint64_t max, uint64_t *out) {
  /* strtoull alone would accept leading space, a sign (and wrap "-1") and trailing junk. */
  if (!text || text[0] < '0' || text[0] > '9')
    return false;
  for (const char *c = text; *c; c++)
    if (*c < '0' || *c > '9')
      return false;
  errno = 0;
  char *end = NULL;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno == ERANGE || !end || *end != '\0' || v > max)
    return false;
  *out = (uint64_t)v;
  return true;
}

static bool backend_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || strchr(":._/+-@(),", c);
}

static bool parse_context(const char *word, uint64_t *id) {
  if (!strcmp(word, "all")) {
    *id = 0;
    return true;
  }
  return hg_ctl_parse_u64(word, UINT64_MAX, id) && *id != 0;
}

/* The optional words after position `at`: a timeout in milliseconds and an "at=" stop point,
 * each at most once, in either order. */
static bool parse_options(int nwords, char **words, int at, hg_ctl_request *req, const char **why) {
  bool have_timeout = false, have_stop = false;
  for (int i = at; i < nwords; i++) {
    const char *w = words[i];
    if (!strncmp(w, "at=", 3) && !have_stop) {
      have_stop = true;
      if (!strcmp(w + 3, "safe-point-or-boundary"))
        req->stop_at = HG_CTL_AT_SAFE_POINT_OR_BOUNDARY;
      else if (!strcmp(w + 3, "safe-point"))
        req->stop_at = HG_CTL_AT_SAFE_POINT;
      else if (!strcmp(w + 3, "boundary"))
        req->stop_at = HG_CTL_AT_BOUNDARY;
      else
        return (*why = "at= must be safe-point, boundary or safe-point-or-boundary"), false;
    } else if (!have_timeout && hg_ctl_parse_u64(w, HG_CTL_MAX_TIMEOUT_MS, &req->timeout_ms)) {
      have_timeout = true;
    } else {
      return (*why = "timeout must be a number of milliseconds from 0 to 86400000, given once, and at= once"), false;
    }
  }
  return true;
}

/* Splits the line in place into words separated by runs of spaces. */
static int split_words(char *text, char **words, int cap) {
  int n = 0;
  for (char *p = text; *p;) {
    while (*p == ' ')
      *p++ = '\0';
    if (!*p)
      break;
    if (n == cap)
      return cap + 1;
    words[n++] = p;
    while (*p && *p != ' ')
      p++;
  }
  return n;
}

bool hg_ctl_parse_request(const char *line, size_t len, hg_ctl_request *req, const char **why) {
  *why = "";
  if (!line || !req)
    return (*why = "no request"), false;
  if (len > HG_CTL_MAX_LINE)
    return (*why = "request longer than 4096 bytes"), false;
  if (len == 0 || line[len - 1] != '\n')
    return (*why = "request does not end in a newline"), false;
  char text[HG_CTL_MAX_LINE];
  size_t n = len - 1;
  for (size_t i = 0; i < n; i++)
    if (line[i] < 0x20 || line[i] > 0x7e) /* NUL, a second newline, tabs, non-ASCII */
      return (*why = "request holds a character other than printable ASCII"), false;
  memcpy(text, line, n);
  text[n] = '\0';

  char *words[MAX_WORDS];
  int nwords = split_words(text, words, MAX_WORDS);
  if (nwords == 0)
    return (*why = "empty request"), false;
  if (nwords > MAX_WORDS)
    return (*why = "too many words"), false;
  memset(req, 0, sizeof *req);

  const char *verb = words[0];
  if (!strcmp(verb, "ping") || !strcmp(verb, "list")) {
    if (nwords != 1)
      return (*why = "ping and list take no arguments"), false;
    req->verb = verb[0] == 'p' ? HG_CTL_PING : HG_CTL_LIST;
    return true;
  }
  if (!strcmp(verb, "migrate")) {
    if (nwords < 3)
      return (*why = "usage: migrate <context-id|all> <backend> [timeout-ms] [at=safe-point|boundary|safe-point-or-boundary]"), false;
    req->verb = HG_CTL_MIGRATE;
    if (!parse_context(words[1], &req->context_id))
      return (*why = "context id must be 'all' or a number from 1 to 2^64-1"), false;
    size_t blen = strlen(words[2]);
    if (blen > HG_CTL_MAX_BACKEND)
      return (*why = "backend name longer than 255 bytes"), false;
    for (size_t i = 0; i < blen; i++)
      if (!backend_char(words[2][i]))
        return (*why = "backend name holds a character other than letters, digits and :._/+-@(),"), false;
    memcpy(req->backend, words[2], blen + 1);
    return parse_options(nwords, words, 3, req, why);
  }
  if (!strcmp(verb, "checkpoint")) {
    if (nwords < 3)
      return (*why = "usage: checkpoint <context-id|all> <absolute-path> [timeout-ms] [at=...]"), false;
    req->verb = HG_CTL_CHECKPOINT;
    if (!parse_context(words[1], &req->context_id))
      return (*why = "context id must be 'all' or a number from 1 to 2^64-1"), false;
    size_t plen = strlen(words[2]);
    if (words[2][0] != '/')
      return (*why = "checkpoint path must be absolute"), false;
    if (plen >= PATH_MAX)
      return (*why = "checkpoint path longer than PATH_MAX"), false;
    memcpy(req->path, words[2], plen + 1);
    return parse_options(nwords, words, 3, req, why);
  }
  *why = "unknown request (ping, list, migrate, checkpoint)";
  return false;
}
