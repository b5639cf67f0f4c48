/* A structure-aware mutator for fuzz_ir_path (libFuzzer's LLVMFuzzerCustomMutator): byte
 * mutations rarely get a module past the checksum and the verifier with a builtin call of a new
 * shape, and builtin calls are where the lowerings trust the most. Half of the time the input
 * is decoded and a new builtin call is added before a block's terminator: a copy of an existing
 * call retyped (another element type and lane count for its gentype-like operands), or a call
 * of another builtin name (patterns of ir/builtin_table.c filled in) with the same operands;
 * new operands are constants of the new types. Most tries are kept only when the call fits a
 * signature (hg_ir_builtin_check), so that the lowerings see unusual well-formed calls; some are
 * kept malformed, for the verifier. Otherwise, and whenever the input does not decode,
 * libFuzzer's own byte mutations. */
#include <stdlib.h>
#include <string.h>

#include "ir/builtin_table.h"

size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);

static uint32_t next(uint32_t *s) { /* xorshift32: deterministic per libFuzzer seed */
  *s ^= *s << 13;
  *s ^= *s >> 17;
  *s ^= *s << 5;
  return *s;
}

static const hg_ir_scalar k_elems[] = {HG_IR_I8, HG_IR_I16, HG_IR_I32, HG_IR_I64, HG_IR_F16, HG_IR_F32, HG_IR_F64};
static const unsigned k_lanes[] = {1, 2, 3, 4, 8, 16};

/* A name from a random row: its pattern's placeholders filled in at random. */
static void random_name(uint32_t *s, char *out, size_t n) {
  const char *names = hg_ir_builtin_rows[next(s) % hg_ir_builtin_num_rows].names;
  unsigned count = 1;
  for (const char *p = names; *p; p++)
    count += *p == ' ';
  unsigned pick = next(s) % count;
  while (pick--)
    names = strchr(names, ' ') + 1;
  static const char *const widths[] = {"2", "3", "4", "8", "16"}, *const rnd[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  static const char *const types[] = {"char", "uchar", "short", "ushort", "int", "uint",
                                      "long", "ulong", "float", "double", "half"};
  size_t k = 0;
  for (const char *p = names; *p && *p != ' ' && k + 12 < n; p++) {
    const char *add = NULL;
    char one[2] = {*p, 0};
    switch (*p) {
    case '#': add = widths[next(s) % 5]; break;
    case '%': add = next(s) % 2 ? widths[next(s) % 5] : ""; break;
    case '@': add = next(s) % 2 ? rnd[next(s) % 4] : ""; break;
    case '!': add = next(s) % 2 ? "_sat" : ""; break;
    case '$':
    case '&': add = types[next(s) % (*p == '$' ? 10 : 11)]; break;
    default: add = one;
    }
    size_t len = strlen(add);
    memcpy(out + k, add, len);
    k += len;
    if ((*p == '$' || *p == '&') && next(s) % 2) {
      const char *w = widths[next(s) % 5];
      memcpy(out + k, w, strlen(w));
      k += strlen(w);
    }
  }
  out[k] = 0;
}

/* A zero-or-random constant of type t (lanes canonical: the value in the low bits). */
static uint32_t random_const(uint32_t *s, hg_ir_function *f, hg_ir_type t) {
  uint64_t lanes[16] = {0};
  unsigned bits = t.scalar == HG_IR_BOOL ? 1 : 8 * hg_ir_scalar_bytes((hg_ir_scalar)t.scalar);
  for (unsigned l = 0; l < t.lanes && t.scalar != HG_IR_PTR; l++) {
    uint64_t v = (uint64_t)next(s) << 32 | next(s);
    lanes[l] = bits < 64 ? v & ((1ull << bits) - 1) : v;
  }
  return hg_ir_add_const(f, t, lanes);
}

/* Another type in the spirit of t: pointers keep (or change) their address space; values
 * whose lanes were the call's widest take the new lane count, values of the call's main
 * element type the new element type. */
static hg_ir_type retyped(uint32_t *s, hg_ir_type t, hg_ir_type main, hg_ir_type to) {
  if (t.scalar == HG_IR_PTR)
    return next(s) % 8 ? t : hg_ir_ptr_ty((hg_ir_addrspace)(next(s) % 5));
  hg_ir_type r = t;
  if (t.lanes == main.lanes)
    r.lanes = to.lanes;
  if (t.scalar == main.scalar)
    r.scalar = to.scalar;
  else if (next(s) % 4 == 0)
    r.scalar = k_elems[next(s) % 7];
  return r;
}

/* Appends call `c` of function f, block b (its operands and result retyped, or renamed) just
 * before the block's terminator. True when it fits a signature. */
static bool add_call(uint32_t *s, hg_ir_module *m, hg_ir_function *f, uint32_t b, const hg_ir_inst *c) {
  hg_ir_type main = c->type;
  for (uint32_t k = 0; k < c->num_operands; k++) {
    hg_ir_type t = f->values[c->operands[k]].type;
    if (t.scalar != HG_IR_PTR && (main.scalar == HG_IR_VOID || t.lanes > main.lanes))
      main = t;
  }
  hg_ir_type to = hg_ir_ty(k_elems[next(s) % 7], k_lanes[next(s) % 6]);
  bool rename = next(s) % 3 == 0;
  uint32_t n = c->num_operands > 16 ? 16 : c->num_operands, ops[16], name = c->imm[0];
  hg_ir_type rt = c->type;
  if (rename) {
    char text[96];
    random_name(s, text, sizeof text);
    name = hg_ir_intern(m, text);
    if (n)
      memcpy(ops, c->operands, n * sizeof *ops);
  } else {
    for (uint32_t k = 0; k < n; k++) {
      hg_ir_type t = retyped(s, f->values[c->operands[k]].type, main, to);
      ops[k] = t.scalar == HG_IR_PTR && hg_ir_type_eq(t, f->values[c->operands[k]].type) ? c->operands[k]
                                                                                        : random_const(s, f, t);
    }
    if (rt.scalar != HG_IR_VOID)
      rt = retyped(s, rt, main, to);
  }
  uint16_t flags = (uint16_t)(c->flags & ((1u << n) - 1));
  hg_ir_append(f, b, HG_OP_CALL_BUILTIN, flags, rt, n, ops, 1, &name);
  hg_ir_block *bl = &f->blocks[b];
  hg_ir_inst added = bl->insts[bl->num_insts - 1];
  bl->insts[bl->num_insts - 1] = bl->insts[bl->num_insts - 2];
  bl->insts[bl->num_insts - 2] = added;
  return hg_ir_builtin_check(m, f, &bl->insts[bl->num_insts - 2], NULL, 0);
}

/* Finds the pick-th builtin call of m; false when there are not that many. */
static bool nth_call(const hg_ir_module *m, uint32_t pick, uint32_t *fn, uint32_t *block, hg_ir_inst *call) {
  for (uint32_t fi = 0; fi < m->num_functions; fi++)
    for (uint32_t b = 0; b < m->functions[fi].num_blocks; b++)
      for (uint32_t i = 0; i < m->functions[fi].blocks[b].num_insts; i++) {
        const hg_ir_inst *in = &m->functions[fi].blocks[b].insts[i];
        if (in->op != HG_OP_CALL_BUILTIN || pick--)
          continue;
        *fn = fi;
        *block = b;
        *call = *in;
        return true;
      }
  return false;
}

/* A copy of m with one new builtin call, well-formed when `valid` (if 24 tries find one);
 * NULL when m has no builtin call. */
static hg_ir_module *with_new_call(uint32_t *s, const hg_ir_module *m, bool valid) {
  uint32_t calls = 0, fi, b;
  hg_ir_inst c;
  while (nth_call(m, calls, &fi, &b, &c))
    calls++;
  if (!calls)
    return NULL;
  for (int tries = 0; tries < 24; tries++) {
    hg_ir_module *copy = hg_ir_module_clone(m);
    if (!copy)
      return NULL;
    nth_call(copy, next(s) % calls, &fi, &b, &c);
    if (add_call(s, copy, &copy->functions[fi], b, &c) == valid || tries == 23) {
      hg_ir_compute_state(copy); /* the terminator moved */
      return copy;
    }
    hg_ir_module_free(copy);
  }
  return NULL;
}

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed) {
  uint32_t s = seed | 1u;
  hg_ir_module *m = next(&s) % 2 ? hg_ir_decode(data, size, NULL, 0) : NULL;
  hg_ir_module *mutant = m ? with_new_call(&s, m, next(&s) % 5 != 0) : NULL;
  uint8_t *bytes = NULL;
  size_t n = 0;
  bool done = mutant && !hg_ir_encode(mutant, &bytes, &n) && n <= max_size;
  if (done)
    memcpy(data, bytes, n);
  free(bytes);
  hg_ir_module_free(mutant);
  hg_ir_module_free(m);
  return done ? n : LLVMFuzzerMutate(data, size, max_size);
}
