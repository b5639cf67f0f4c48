/* The source -> IR cache of clBuildProgram and clCompileProgram (an object: its bitcode, see
 * lowering/frontend.h), and of clLinkProgram's executables: an entry is the IR and the
 * files the source included from outside the build (found through -I or by path), each with
 * its size and a hash of its bytes, so a header changed on disk is a miss, never a stale
 * program (platform/program_ir_cache.c). */
#ifndef HETGPU_PLATFORM_PROGRAM_IR_CACHE_H
#define HETGPU_PLATFORM_PROGRAM_IR_CACHE_H

#include <stdbool.h>

#include "devices/cache.h"
#include "ir/ir.h"
#include "lowering/frontend.h"

/* The value stored under key (malloc'd), when every file it was made from still has the same
 * bytes; and storing one with the current bytes of the files in deps (may list none). */
bool hg_program_cache_get(const hg_cache_key *key, uint8_t **value, size_t *size);
void hg_program_cache_put(const hg_cache_key *key, const uint8_t *value, size_t size, const hg_frontend_deps *deps);
/* The IR stored under key, when every file it was compiled from still has the same bytes. */
bool hg_program_ir_cache_get(const hg_cache_key *key, hg_ir_module **out);
/* Stores m under key with the current bytes of the files in deps. */
void hg_program_ir_cache_put(const hg_cache_key *key, const hg_ir_module *m, const hg_frontend_deps *deps);

#endif
