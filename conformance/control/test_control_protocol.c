/* Unit test of the control socket's request parser (platform/control_protocol.c): what it
 * accepts, and that every malformed line is refused with a message, never a crash. */
#include "platform/control_protocol.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define EXPECT(cond, ...)                         \
  do {                                            \
    if (cond) {                                   \
      passed++;                                   \
    } else {                                      \
      failed++;                                   \
      fprintf(stderr, "%s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);               \
      fprintf(stderr, "\n");                      \
    }                                             \
  } while (0)

static hg_ctl_request req;

static bool parse_n(const char *line, size_t len) {
  const char *why = NULL;
  memset(&req, 0x5a, sizeof req); /* poison: a field the parser forgets shows */
  bool ok = hg_ctl_parse_request(line, len, &req, &why);
  if (!ok && (!why || !*why))
    failed++, fprintf(stderr, "refusal without a message for \"%.*s\"\n", (int)len, line);
  return ok;
}
static bool parse(const char *line) { return parse_n(line, strlen(line)); }

static void valid_requests(void) {
  EXPECT(parse("ping\n") && req.verb == HG_CTL_PING, "ping");
  EXPECT(parse("list\n") && req.verb == HG_CTL_LIST, "list");
  EXPECT(parse("  list  \n") && req.verb == HG_CTL_LIST, "spaces around a word are allowed");
  EXPECT(parse("migrate all riscv\n") && req.verb == HG_CTL_MIGRATE && req.context_id == 0 &&
             !strcmp(req.backend, "riscv") && req.timeout_ms == 0,
         "migrate all riscv");
  EXPECT(parse("migrate 7 vendor:Portable 2500\n") && req.context_id == 7 && !strcmp(req.backend, "vendor:Portable") &&
             req.timeout_ms == 2500,
         "migrate with id and timeout");
  EXPECT(parse("migrate 3 riscv at=safe-point 100\n") && req.stop_at == HG_CTL_AT_SAFE_POINT && req.timeout_ms == 100,
         "migrate at a safe point, options in either order");
  EXPECT(parse("migrate 3 riscv 100 at=boundary\n") && req.stop_at == HG_CTL_AT_BOUNDARY && req.timeout_ms == 100,
         "migrate at the kernel boundary");
  EXPECT(parse("migrate 3 riscv\n") && req.stop_at == HG_CTL_AT_DEFAULT, "the default stop point");
  EXPECT(parse("checkpoint 3 /tmp/x at=safe-point-or-boundary\n") && req.stop_at == HG_CTL_AT_SAFE_POINT_OR_BOUNDARY,
         "checkpoint with a stop point");
  EXPECT(parse("migrate 18446744073709551615 riscv 86400000\n") && req.context_id == UINT64_MAX &&
             req.timeout_ms == 86400000,
         "largest id and timeout");
  EXPECT(parse("migrate 1 vendor:NVIDIA(R)_x-1.2/3+a@b,c 0\n") && !strcmp(req.backend, "vendor:NVIDIA(R)_x-1.2/3+a@b,c"),
         "every allowed backend character");
  EXPECT(parse("checkpoint all /tmp/a.ckpt\n") && req.verb == HG_CTL_CHECKPOINT && req.context_id == 0 &&
             !strcmp(req.path, "/tmp/a.ckpt") && req.timeout_ms == 0,
         "checkpoint all");
  EXPECT(parse("checkpoint 3 /x/y 10\n") && req.context_id == 3 && !strcmp(req.path, "/x/y") && req.timeout_ms == 10,
         "checkpoint with id and timeout");

  char name[HG_CTL_MAX_BACKEND + 32];
  int n = snprintf(name, sizeof name, "migrate all ");
  memset(name + n, 'a', HG_CTL_MAX_BACKEND);
  strcpy(name + n + HG_CTL_MAX_BACKEND, "\n");
  EXPECT(parse(name) && strlen(req.backend) == HG_CTL_MAX_BACKEND, "backend name of 255 bytes");

  /* The longest line: 4096 bytes with its newline. */
  char *line = malloc(HG_CTL_MAX_LINE + 2);
  n = snprintf(line, HG_CTL_MAX_LINE, "checkpoint all /");
  memset(line + n, 'p', HG_CTL_MAX_LINE - 1 - (size_t)n);
  line[HG_CTL_MAX_LINE - 1] = '\n';
  EXPECT(parse_n(line, HG_CTL_MAX_LINE) && strlen(req.path) == HG_CTL_MAX_LINE - 1 - strlen("checkpoint all "),
         "a line of exactly 4096 bytes");
  line[HG_CTL_MAX_LINE - 1] = 'p';
  line[HG_CTL_MAX_LINE] = '\n';
  EXPECT(!parse_n(line, HG_CTL_MAX_LINE + 1), "a line of 4097 bytes");
  free(line);
}

static void invalid_requests(void) {
  static const char *bad[] = {
      "",                                      /* nothing */
      "\n",                                    /* empty line */
      "    \n",                                /* only spaces */
      "ping",                                  /* no newline */
      "ping\n\n",                              /* two lines */
      "ping\nlist\n",                          /* two requests */
      "ping\r\n",                              /* carriage return */
      "ping\tx\n",                             /* tab */
      "PING\n",                                /* verbs are lower case */
      "frobnicate\n",                          /* unknown verb */
      "ping now\n",                            /* argument to ping */
      "list all\n",                            /* argument to list */
      "migrate\n",                             /* no arguments */
      "migrate all\n",                         /* no backend */
      "migrate all riscv 10 20\n",             /* two timeouts */
      "migrate all riscv at=boundary at=boundary\n", /* two stop points */
      "migrate all riscv at=anywhere\n",
      "migrate all riscv at=\n",
      "migrate all riscv 10 at=boundary x\n",  /* too many words */
      "migrate 0 riscv\n",                     /* id 0 is spelled all */
      "migrate -1 riscv\n",                    /* sign */
      "migrate +1 riscv\n",                    /* sign */
      "migrate 0x10 riscv\n",                  /* hex */
      "migrate 1e3 riscv\n",                   /* not an integer */
      "migrate 18446744073709551616 riscv\n",  /* 2^64 */
      "migrate 99999999999999999999999 riscv\n",
      "migrate ALL riscv\n",
      "migrate all riscv 86400001\n",          /* timeout over a day */
      "migrate all riscv -5\n",
      "migrate all riscv 18446744073709551616\n",
      "migrate all riscv 5ms\n",
      "migrate all ris;cv\n",                  /* characters outside the name set */
      "migrate all vendor:a$b\n",
      "migrate all \"riscv\"\n",
      "migrate all ../x\\y\n",
      "checkpoint all\n",                      /* no path */
      "checkpoint all relative/path\n",        /* relative */
      "checkpoint all ./x\n",
      "checkpoint all ~/x\n",
      "checkpoint 0 /tmp/x\n",
      "checkpoint all /tmp/x 1.5\n",
      "checkpoint all /tmp/x 1 2\n",
      "migrate all riscv\xc3\xa9\n",           /* non-ASCII */
      "\x7f\n",                                /* DEL */
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    EXPECT(!parse(bad[i]), "accepted \"%s\"", bad[i]);

  EXPECT(!parse_n("ping\0\n", 6), "embedded NUL before the newline");
  EXPECT(!parse_n("pi\0ng\n", 6), "embedded NUL inside the verb");
  EXPECT(!parse_n("migrate all riscv\0 7\n", 21), "embedded NUL inside the arguments");
  EXPECT(!parse_n("ping\n", 4), "length cuts off the newline");

  char name[HG_CTL_MAX_BACKEND + 32];
  int n = snprintf(name, sizeof name, "migrate all ");
  memset(name + n, 'a', HG_CTL_MAX_BACKEND + 1);
  strcpy(name + n + HG_CTL_MAX_BACKEND + 1, "\n");
  EXPECT(!parse(name), "backend name of 256 bytes");

  /* Huge and non-terminated inputs of every length near the limit. */
  char *big = malloc(3 * HG_CTL_MAX_LINE);
  memset(big, 'x', 3 * HG_CTL_MAX_LINE);
  for (size_t len = HG_CTL_MAX_LINE - 2; len < HG_CTL_MAX_LINE + 3; len++)
    EXPECT(!parse_n(big, len), "unterminated junk of %zu bytes", len);
  big[3 * HG_CTL_MAX_LINE - 1] = '\n';
  EXPECT(!parse_n(big, 3 * HG_CTL_MAX_LINE), "12 KiB line");
  free(big);

  const char *why = NULL;
  EXPECT(!hg_ctl_parse_request(NULL, 5, &req, &why) && why && *why, "NULL line");
}

static void numbers(void) {
  uint64_t v = 0;
  EXPECT(hg_ctl_parse_u64("0", 10, &v) && v == 0, "0");
  EXPECT(hg_ctl_parse_u64("10", 10, &v) && v == 10, "max itself");
  EXPECT(!hg_ctl_parse_u64("11", 10, &v), "over max");
  EXPECT(hg_ctl_parse_u64("007", 10, &v) && v == 7, "leading zeros");
  EXPECT(hg_ctl_parse_u64("18446744073709551615", UINT64_MAX, &v) && v == UINT64_MAX, "2^64-1");
  EXPECT(!hg_ctl_parse_u64("18446744073709551616", UINT64_MAX, &v), "2^64");
  EXPECT(!hg_ctl_parse_u64("", 10, &v), "empty");
  EXPECT(!hg_ctl_parse_u64(" 1", 10, &v), "leading space");
  EXPECT(!hg_ctl_parse_u64("1 ", 10, &v), "trailing space");
  EXPECT(!hg_ctl_parse_u64("-0", 10, &v), "minus");
  EXPECT(!hg_ctl_parse_u64(NULL, 10, &v), "NULL");
}

int main(void) {
  valid_requests();
  invalid_requests();
  numbers();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
