/* hg_ir_link (clLinkProgram): merges modules into a new one. Function declarations (no
 * blocks) resolve by name to the one definition. Program-scope variables link by their
 * linkage (hg_ir_linkage): an imported one (`extern`) resolves by name to the one exported
 * definition (or stays imported in a library), internal ones are private to their module and
 * are renamed "<name>.<k>" when the name is already taken. */
#include "ir/ir_internal.h"

#include <stdlib.h>
#include <string.h>

static bool same_signature(const hg_ir_function *a, const hg_ir_function *b) {
  if (!hg_ir_type_eq(a->ret_type, b->ret_type) || a->num_params != b->num_params)
    return false;
  for (uint32_t i = 0; i < a->num_params; i++)
    if (!hg_ir_type_eq(a->param_types[i], b->param_types[i]))
      return false;
  return true;
}

static char *unique_name(const hg_ir_module *out, const char *name) {
  if (hg_ir_find_global(out, name) == HG_IR_NONE)
    return hg_ir_strdup(name);
  size_t l = strlen(name) + 16;
  char *buf = malloc(l);
  for (unsigned k = 1; buf; k++) {
    snprintf(buf, l, "%s.%u", name, k);
    if (hg_ir_find_global(out, buf) == HG_IR_NONE)
      break;
  }
  return buf;
}

static uint32_t add_global(hg_ir_module *out, const hg_ir_global *g, bool keep_name) {
  hg_ir_global c = *g;
  char *nm = keep_name ? hg_ir_strdup(g->name) : unique_name(out, g->name);
  c.name = nm;
  uint32_t i = nm ? hg_ir_add_global(out, &c) : HG_IR_NONE;
  free(nm);
  return i;
}

/* gmap[k][g]: where module k's global g went. Exported definitions first (their names are
 * the link's), then the declarations (each resolved to a definition, or one imported global
 * per name), then the internal ones under names still free. */
static bool link_globals(hg_ir_module *out, const hg_ir_module *const *mods, size_t n, uint32_t **gmap, char *err,
                         size_t err_size) {
  for (unsigned pass = HG_LINK_EXPORTED;; pass = pass == HG_LINK_EXPORTED ? HG_LINK_IMPORTED : HG_LINK_INTERNAL) {
    for (size_t k = 0; k < n; k++) {
      const hg_ir_module *m = mods[k];
      for (uint32_t g = 0; g < m->num_globals; g++) {
        const hg_ir_global *gl = &m->globals[g];
        if (gl->linkage != pass)
          continue;
        uint32_t at = hg_ir_find_global(out, gl->name);
        const hg_ir_global *other = at == HG_IR_NONE ? NULL : &out->globals[at];
        if (pass == HG_LINK_EXPORTED && other) {
          hg_ir_errf(err, err_size, "@%s is defined in more than one module", gl->name);
          return false;
        }
        if (pass == HG_LINK_IMPORTED && other) {
          if (other->addrspace != gl->addrspace || (gl->size && other->size && gl->size != other->size)) {
            hg_ir_errf(err, err_size, "@%s is declared with another type or address space than its definition",
                       gl->name);
            return false;
          }
          gmap[k][g] = at;
          continue;
        }
        if ((gmap[k][g] = add_global(out, gl, pass != HG_LINK_INTERNAL)) == HG_IR_NONE) {
          hg_ir_errf(err, err_size, "out of memory");
          return false;
        }
      }
    }
    if (pass == HG_LINK_INTERNAL)
      return true;
  }
}

hg_ir_module *hg_ir_link(const hg_ir_module *const *mods, size_t n, hg_ir_program_kind kind, char *err,
                         size_t err_size) {
  hg_ir_module *out = hg_ir_module_new();
  if (out)
    out->program_kind = (uint8_t)kind; /* before the verification: a library may keep declarations */
  uint32_t **smap = calloc(n ? n : 1, sizeof *smap), **gmap = calloc(n ? n : 1, sizeof *gmap),
           **fmap = calloc(n ? n : 1, sizeof *fmap);
  char verr[256];
  bool ok = out && smap && gmap && fmap;
  if (!ok)
    hg_ir_errf(err, err_size, "out of memory");
  for (size_t k = 0; ok && k < n; k++) {
    if (!hg_ir_verify(mods[k], verr, sizeof verr)) {
      hg_ir_errf(err, err_size, "module %zu does not verify: %s", k, verr);
      ok = false;
    }
  }
  /* strings, globals, and the definitions, module by module */
  for (size_t k = 0; ok && k < n; k++) {
    const hg_ir_module *m = mods[k];
    out->uses_fp64 |= m->uses_fp64;
    out->uses_fp16 |= m->uses_fp16;
    if (!out->source_language && m->source_language)
      ok = (out->source_language = hg_ir_strdup(m->source_language)) != NULL;
    if (!out->build_options && m->build_options)
      ok = ok && (out->build_options = hg_ir_strdup(m->build_options)) != NULL;
    smap[k] = malloc((m->num_strings + 1) * sizeof **smap);
    gmap[k] = malloc((m->num_globals + 1) * sizeof **gmap);
    fmap[k] = malloc((m->num_functions + 1) * sizeof **fmap);
    ok = ok && smap[k] && gmap[k] && fmap[k];
    for (uint32_t s = 0; ok && s < m->num_strings; s++)
      ok = (smap[k][s] = hg_ir_intern(out, m->strings[s])) != HG_IR_NONE;
    if (!ok)
      hg_ir_errf(err, err_size, "out of memory");
  }
  ok = ok && link_globals(out, mods, n, gmap, err, err_size);
  for (size_t k = 0; ok && k < n; k++) {
    const hg_ir_module *m = mods[k];
    for (uint32_t f = 0; ok && f < m->num_functions; f++) {
      const hg_ir_function *fn = &m->functions[f];
      fmap[k][f] = HG_IR_NONE;
      if (!fn->num_blocks)
        continue;
      if (hg_ir_find_function(out, fn->name) != HG_IR_NONE) {
        hg_ir_errf(err, err_size, "@%s is defined in more than one module", fn->name);
        ok = false;
        break;
      }
      if (hg_ir_grow((void **)&out->functions, &out->cap_functions, out->num_functions + 1, sizeof *out->functions) ||
          !hg_ir_clone_function(&out->functions[out->num_functions], fn)) {
        hg_ir_errf(err, err_size, "out of memory");
        ok = false;
        break;
      }
      fmap[k][f] = out->num_functions++;
    }
  }
  /* relocation targets (after all globals exist), declarations against definitions */
  for (size_t k = 0; ok && k < n; k++) {
    const hg_ir_module *m = mods[k];
    for (uint32_t g = 0; g < m->num_globals; g++) {
      if (m->globals[g].linkage == HG_LINK_IMPORTED)
        continue; /* resolved to another module's global, whose relocations that module maps */
      hg_ir_global *og = &out->globals[gmap[k][g]];
      for (uint32_t r = 0; r < og->num_relocs; r++)
        og->relocs[r].target = gmap[k][og->relocs[r].target];
    }
    for (uint32_t f = 0; ok && f < m->num_functions; f++) {
      const hg_ir_function *fn = &m->functions[f];
      if (fn->num_blocks)
        continue;
      uint32_t d = hg_ir_find_function(out, fn->name);
      if (d != HG_IR_NONE && !same_signature(fn, &out->functions[d])) {
        hg_ir_errf(err, err_size, "@%s is declared with another signature than its definition", fn->name);
        ok = false;
      }
      fmap[k][f] = d; /* HG_IR_NONE: unresolved, an error only when something calls it */
    }
  }
  /* rewrite the copied definitions' references into the merged module */
  for (size_t k = 0; ok && k < n; k++) {
    const hg_ir_module *m = mods[k];
    for (uint32_t f = 0; ok && f < m->num_functions; f++) {
      if (!m->functions[f].num_blocks)
        continue;
      hg_ir_function *fn = &out->functions[fmap[k][f]];
      for (uint32_t x = 0; x < fn->num_values; x++)
        if (fn->values[x].kind == HG_VAL_GLOBAL)
          fn->values[x].index = gmap[k][fn->values[x].index];
      for (uint32_t x = 0; x < fn->num_local_vars; x++)
        fn->local_vars[x].global = gmap[k][fn->local_vars[x].global];
      for (uint32_t b = 0; ok && b < fn->num_blocks; b++)
        for (uint32_t i = 0; ok && i < fn->blocks[b].num_insts; i++) {
          hg_ir_inst *in = &fn->blocks[b].insts[i];
          if (in->op == HG_OP_CALL_BUILTIN) {
            in->imm[0] = smap[k][in->imm[0]];
          } else if (in->op == HG_OP_CALL) {
            uint32_t c = fmap[k][in->imm[0]];
            if (c == HG_IR_NONE) {
              hg_ir_errf(err, err_size, "@%s calls @%s, defined in no module", fn->name,
                         m->functions[in->imm[0]].name);
              ok = false;
            }
            in->imm[0] = c;
          }
        }
    }
  }
  if (ok && !hg_ir_verify(out, verr, sizeof verr)) {
    hg_ir_errf(err, err_size, "linked module does not verify: %s", verr);
    ok = false;
  }
  for (size_t k = 0; k < n; k++) {
    if (smap)
      free(smap[k]);
    if (gmap)
      free(gmap[k]);
    if (fmap)
      free(fmap[k]);
  }
  free(smap);
  free(gmap);
  free(fmap);
  if (!ok) {
    hg_ir_module_free(out);
    return NULL;
  }
  return out;
}
