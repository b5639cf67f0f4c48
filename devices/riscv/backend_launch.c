/* Kernel launches on the RISC-V backend: one simulator job per work-group.
 *
 * L1 of the core running a job (the same addresses on every core, each core its own L1):
 *   [0, local)            __local memory: static variables, then __local arguments (16-aligned)
 *   work-group record     HG_RV_WG_WORDS words
 *   work-item records     HG_RV_WI_BYTES each
 *   private frames        frame_size each (the step function's slots)
 *   ... stack ...         at least HG_RV_STACK_BYTES up to the top of L1
 * DRAM per launch (read-only for the jobs): the launch descriptor and the argument block.
 * A fault fails the launch with CL_OUT_OF_RESOURCES (logged under HETGPU_DEBUG=sim); the
 * simulator stays usable. Device time: the busiest core's cycles at 1 GHz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "devices/profile.h"
#include "devices/printf_buffer.h"
#include "devices/riscv/backend_internal.h"
#include "common/log.h"

static uint64_t align16(uint64_t x) { return (x + 15) & ~15ull; }


/* HETGPU_DEBUG=sim: the launch's counters from the cycle model, per core that ran work-groups
 * and in total, with the simulator's speed (simulated instructions per host second). */
static void log_counters(const char *kernel, const hg_sim_machine *sim, const hg_sim_core_stats *st, uint64_t host_ns) {
  hg_sim_core_stats t = {0};
  for (unsigned c = 0; c < hg_sim_core_count(sim); c++) {
    if (!st[c].jobs)
      continue;
    HG_LOG(HG_LOG_SIM,
           "riscv: %s core %u: %llu work-groups, %llu instructions, %llu cycles, L1 %llu bytes, DRAM %llu reads "
           "%llu writes, NoC %llu bytes in %llu flits",
           kernel, c, (unsigned long long)st[c].jobs, (unsigned long long)st[c].insns,
           (unsigned long long)st[c].cycles, (unsigned long long)st[c].l1_bytes, (unsigned long long)st[c].dram_reads,
           (unsigned long long)st[c].dram_writes, (unsigned long long)st[c].noc_bytes,
           (unsigned long long)st[c].noc_flits);
    t.insns += st[c].insns, t.cycles += st[c].cycles, t.noc_bytes += st[c].noc_bytes;
    t.dram_reads += st[c].dram_reads, t.dram_writes += st[c].dram_writes;
  }
  HG_LOG(HG_LOG_SIM,
         "riscv: %s total: %llu instructions, %llu core cycles, DRAM %llu reads %llu writes, NoC %llu bytes; "
         "%.1f ms on the host, %.0f simulated MIPS",
         kernel, (unsigned long long)t.insns, (unsigned long long)t.cycles, (unsigned long long)t.dram_reads,
         (unsigned long long)t.dram_writes, (unsigned long long)t.noc_bytes, host_ns / 1e6,
         host_ns ? t.insns * 1e3 / host_ns : 0.0);
}

cl_int hg_rv_kernel_launch(hg_backend *be, hg_dev_kernel *k, const hg_launch *launch, uint64_t *device_ns) {
  hg_rv_backend *rb = hg_rv_of(be);
  hg_sim_machine *sim = rb->sim;
  const hg_ir_function *f = k->fn;
  if (device_ns)
    *device_ns = 0;
  if (!sim)
    return CL_OUT_OF_RESOURCES;
  if (launch->num_args != f->num_params)
    return CL_INVALID_KERNEL_ARGS;
  /* the range: dimensions beyond work_dim are 1 */
  uint64_t global[3], local[3], groups[3], offset[3];
  uint64_t njobs = 1, nwi = 1;
  for (unsigned d = 0; d < 3; d++) {
    bool used = d < launch->work_dim;
    global[d] = used ? launch->global_size[d] : 1;
    local[d] = used && launch->local_size[d] ? launch->local_size[d] : 1;
    offset[d] = used ? launch->global_offset[d] : 0;
    groups[d] = (global[d] + local[d] - 1) / local[d];
    njobs *= groups[d];
    nwi *= local[d];
  }
  /* local memory and the L1 layout */
  uint64_t local_end = f->local_static_size;
  uint64_t *local_at = calloc(f->num_params ? f->num_params : 1, sizeof *local_at);
  hg_rv_arg_layout *lay = malloc((f->num_params ? f->num_params : 1) * sizeof *lay);
  hg_sim_range *ranges = calloc(f->num_params + 3, sizeof *ranges);
  hg_sim_job *jobs = NULL;
  cl_int rc = CL_OUT_OF_HOST_MEMORY;
  uint64_t block = 0, pf_block = 0;
  if (!local_at || !lay || !ranges)
    goto done;
  local_end = align16(local_end);
  for (uint32_t i = 0; i < f->num_params; i++)
    if (launch->args[i].kind == HG_ARG_LOCAL) {
      local_at[i] = local_end;
      local_end = align16(local_end + launch->args[i].size);
    }
  uint64_t l1 = hg_sim_get_config(sim)->l1_size;
  uint64_t wg_at = align16(local_end), wi_at = wg_at + HG_RV_WG_WORDS * 8;
  uint64_t frames_at = align16(wi_at + nwi * HG_RV_WI_BYTES);
  uint64_t frame = k->code->frame_size;
  uint64_t need = frames_at + nwi * frame + HG_RV_STACK_BYTES;
  if (need > l1) {
    HG_LOG(HG_LOG_SIM, "riscv: %s needs %llu bytes of L1 per work-group (%llu work-items x %llu-byte frames, %llu "
                       "bytes local), the tile has %llu",
           f->name, (unsigned long long)need, (unsigned long long)nwi, (unsigned long long)frame,
           (unsigned long long)local_end, (unsigned long long)l1);
    rc = CL_OUT_OF_RESOURCES;
    goto done;
  }
  /* descriptor + argument block in one DRAM allocation */
  uint32_t args_size = hg_rv_arg_layout_of(f, lay);
  uint64_t desc_bytes = HG_RV_D_WORDS * 8, block_size = desc_bytes + args_size;
  /* a printf buffer (writable) when the program prints: count word + records */
  uint64_t pf_cap = k->prog->obj.num_formats ? HG_PROFILE_PRINTF_BUFFER_SIZE : 0;
  if (pf_cap && hg_sim_dram_alloc(sim, pf_cap + 8, &pf_block) != HG_SIM_OK) {
    pf_block = 0;
    rc = CL_OUT_OF_RESOURCES;
    goto done;
  }
  if (hg_sim_dram_alloc(sim, block_size, &block) != HG_SIM_OK) {
    block = 0;
    rc = CL_OUT_OF_RESOURCES;
    goto done;
  }
  uint64_t *desc = hg_sim_dram_ptr(sim, block, block_size);
  uint8_t *args = (uint8_t *)desc + desc_bytes;
  memset(desc, 0, block_size);
  desc[HG_RV_D_WORK_DIM] = launch->work_dim;
  for (unsigned d = 0; d < 3; d++) {
    desc[HG_RV_D_OFFSET + d] = offset[d];
    desc[HG_RV_D_GLOBAL + d] = global[d];
    desc[HG_RV_D_LOCAL + d] = local[d];
    desc[HG_RV_D_GROUPS + d] = groups[d];
  }
  desc[HG_RV_D_ARGS] = block + desc_bytes;
  desc[HG_RV_D_WG] = HG_SIM_L1_BASE + wg_at;
  desc[HG_RV_D_WI] = HG_SIM_L1_BASE + wi_at;
  desc[HG_RV_D_FRAMES] = HG_SIM_L1_BASE + frames_at;
  desc[HG_RV_D_FRAME_STRIDE] = frame;
  size_t nranges = 0;
  ranges[nranges++] = (hg_sim_range){block, block_size, false};
  if (pf_block) {
    memset(hg_sim_dram_ptr(sim, pf_block, 8), 0, 8);
    desc[HG_RV_D_PRINTF] = pf_block;
    desc[HG_RV_D_PRINTF_SIZE] = pf_cap;
    ranges[nranges++] = (hg_sim_range){pf_block, pf_cap + 8, true};
  }
  if (k->prog->image.data_size)
    ranges[nranges++] = (hg_sim_range){k->prog->image.data_base, k->prog->image.data_size, true};
  for (uint32_t i = 0; i < f->num_params; i++) {
    const hg_launch_arg *a = &launch->args[i];
    uint8_t *slot = args + lay[i].offset;
    uint64_t v = 0;
    switch (a->kind) {
    case HG_ARG_BUFFER:
      if (a->mem) {
        v = a->mem->addr + a->offset;
        if (a->mem->size)
          ranges[nranges++] = (hg_sim_range){a->mem->addr, a->mem->size, f->args[i].kind != HG_KARG_CONSTANT_PTR};
      }
      memcpy(slot, &v, 8);
      break;
    case HG_ARG_LOCAL:
      v = HG_SIM_L1_BASE + local_at[i];
      memcpy(slot, &v, 8);
      break;
    case HG_ARG_VALUE:
      memcpy(slot, a->value, a->size < lay[i].size ? a->size : lay[i].size);
      break;
    }
  }
  jobs = malloc(njobs * sizeof *jobs);
  if (!jobs)
    goto done;
  for (uint64_t j = 0; j < njobs; j++)
    jobs[j] = (hg_sim_job){.pc = k->entry, .a = {block, j}};
  hg_sim_launch sl = {.jobs = jobs, .njobs = njobs, .ranges = ranges, .nranges = nranges};
  /* the per-core counters cost a little: only when HETGPU_DEBUG=sim asks for them */
  if (hg_log_mask & HG_LOG_SIM)
    sl.stats = calloc(hg_sim_core_count(sim), sizeof *sl.stats);
  uint64_t t_start = hg_host_clock_ns();
  pthread_mutex_lock(&rb->lock);
  int src = HG_SIM_OK;
  if (rb->loaded_program != k->prog->id) {
    src = hg_sim_load_code(sim, HG_SIM_CODE_BASE, k->prog->image.code, k->prog->image.code_size);
    rb->loaded_program = src == HG_SIM_OK ? k->prog->id : 0;
  }
  if (src == HG_SIM_OK)
    src = hg_sim_run(sim, &sl);
  pthread_mutex_unlock(&rb->lock);
  if (sl.stats && src == HG_SIM_OK)
    log_counters(f->name, sim, sl.stats, hg_host_clock_ns() - t_start);
  free(sl.stats);
  if (device_ns)
    *device_ns = sl.max_cycles; /* 1 GHz: one cycle a nanosecond */
  if (sl.out_len) {
    fwrite(sl.out, 1, sl.out_len, stdout);
    fflush(stdout);
  }
  free(sl.out);
  if (pf_block && (src == HG_SIM_OK || src == HG_SIM_EFAULT)) {
    char *text = NULL;
    size_t len = 0;
    hg_rv_printf_collect(k->prog, sim, hg_sim_dram_ptr(sim, pf_block, pf_cap + 8), pf_cap, &text, &len);
    if (len && launch->printf_out && launch->printf_len) {
      char *n = realloc(*launch->printf_out, *launch->printf_len + len + 1);
      if (n) {
        memcpy(n + *launch->printf_len, text, len);
        *launch->printf_len += len;
        n[*launch->printf_len] = 0;
        *launch->printf_out = n;
      }
    } else {
      hg_printf_write(text, len);
    }
    free(text);
  }
  if (src == HG_SIM_EFAULT) {
    const hg_sim_fault *ft = &sl.fault;
    HG_LOG(HG_LOG_SIM, "riscv: %s faulted: %s at pc 0x%llx (address 0x%llx, insn 0x%08x) in work-group %zu on core %u",
           f->name, hg_sim_fault_name(ft->kind), (unsigned long long)ft->pc, (unsigned long long)ft->addr, ft->insn,
           ft->job, ft->core);
    rc = CL_OUT_OF_RESOURCES;
  } else if (src != HG_SIM_OK) {
    HG_LOG(HG_LOG_SIM, "riscv: launch of %s refused by the simulator (%d)", f->name, src);
    rc = src == HG_SIM_ENOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
  } else {
    HG_LOG(HG_LOG_SIM, "riscv: %s: %llu work-groups, %llu cycles on the busiest core", f->name,
           (unsigned long long)njobs, (unsigned long long)sl.max_cycles);
    rc = CL_SUCCESS;
  }
done:
  if (block)
    hg_sim_dram_free(sim, block);
  if (pf_block)
    hg_sim_dram_free(sim, pf_block);
  free(jobs);
  free(local_at);
  free(lay);
  free(ranges);
  return rc;
}
