/* Kernel launches on the RISC-V backend: one simulator job per work-group.
 *
 * L1 of the core running a job (the same addresses on every core, each core its own L1):
 *   [0, local)            __local memory: static variables, then __local arguments (16-aligned)
 *   work-group record     HG_RV_WG_WORDS words
 *   work-item records     HG_RV_WI_BYTES each
 *   private frames        frame_size each (the step function's slots)
 *   ... stack ...         at least HG_RV_STACK_BYTES up to the top of L1
 * DRAM per launch (read-only for the jobs): the launch descriptor and the argument block;
 * for kernel_run also the resume records of the groups it resumes (read-only) and one save
 * record per core (writable: a stopping core saves at most one group, then starts no other).
 * A fault fails the launch with CL_OUT_OF_RESOURCES (logged under HETGPU_DEBUG=sim), one past
 * hg_launch.time_limit_ns with HG_ERR_TIME_LIMIT; the simulator stays usable. Device time: the
 * busiest core's cycles at 1 GHz. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/host_clock.h"
#include "devices/profile.h"
#include "devices/printf_buffer.h"
#include "devices/riscv/backend_internal.h"
#include "devices/riscv/backend_state.h"
#include "devices/riscv/runtime/rt_image.h"
#include "common/log.h"
#include "common/safepoint_settings.h"

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

/* Does the resumed state describe this launch's range? */
static bool same_range(const hg_ir_ndrange_state *r, const hg_launch *launch, const uint64_t *offset,
                       const uint64_t *global, const uint64_t *local) {
  if (r->work_dim != launch->work_dim)
    return false;
  for (unsigned d = 0; d < 3; d++)
    if (r->global_offset[d] != offset[d] || r->global_size[d] != global[d] || r->local_size[d] != local[d])
      return false;
  return true;
}

/* Work-groups handed to the simulator per run: a launch of billions of groups needs job lists of
 * this size only, and sees stop requests and its time limit between batches too. */
#define BATCH_GROUPS ((uint64_t)1 << 14)

/* A group's state carried over unchanged from the state resumed (it did not run this time). */
static bool keep_group(hg_ir_ndrange_state *st, const hg_ir_group_state *before) {
  hg_ir_group_state *gs = hg_ir_ndrange_state_add_group(st, before->group);
  if (!gs)
    return false;
  memcpy(gs->safepoint, before->safepoint, gs->num_items * sizeof *gs->safepoint);
  memcpy(gs->values, before->values, (size_t)gs->num_items * st->value_stride);
  memcpy(gs->frames, before->frames, (size_t)gs->num_items * st->private_size);
  memcpy(gs->local, before->local, st->local_bytes);
  return true;
}

/* The stopped state after a run: per job, DONE, stopped (its core's save record) or not run
 * (then as the resumed state had it). NULL when memory runs out or a record does not read. */
static hg_ir_ndrange_state *collect_stopped(const hg_rv_state_io *io, const hg_launch *launch,
                                            const hg_ir_ndrange_state *resume, const uint64_t *job_group, size_t njobs,
                                            const hg_sim_job_result *res, const uint8_t *save, unsigned ncores,
                                            uint64_t done_below, uint64_t batch_end) {
  hg_ir_ndrange_state *st = hg_ir_ndrange_state_new(io->kernel->name, launch->work_dim, resume ? resume->global_offset
                                                    : (uint64_t[]){launch->global_offset[0], launch->global_offset[1],
                                                                   launch->global_offset[2]},
                                                    io->global, io->local, io->layout, (uint32_t)io->local_bytes);
  if (!st)
    return NULL;
  /* the batches before the stopping one ran to the end; the ones after it never ran */
  for (uint64_t g = 0; g < st->num_groups; g++)
    st->group_status[g] = g < done_below || (resume && resume->group_status[g] == HG_GROUP_DONE) ? HG_GROUP_DONE
                                                                                                : HG_GROUP_NOT_STARTED;
  for (size_t j = 0; j < njobs; j++) {
    uint64_t g = job_group[j];
    const hg_ir_group_state *before = resume ? hg_ir_ndrange_state_group(resume, g) : NULL;
    if (res[j].status == HG_SIM_JOB_DONE && res[j].ret[0] == HG_RV_JOB_DONE) {
      st->group_status[g] = HG_GROUP_DONE;
    } else if (res[j].status == HG_SIM_JOB_DONE || before) {
      bool ok;
      if (res[j].status == HG_SIM_JOB_DONE) { /* stopped: its core's save record */
        hg_ir_group_state *gs = hg_ir_ndrange_state_add_group(st, g);
        ok = gs && save && hg_rv_record_to_state(io, save + (j % ncores) * io->rec_size, gs);
      } else { /* never started this time: as it was */
        ok = keep_group(st, before);
      }
      if (!ok) {
        hg_ir_ndrange_state_free(st);
        return NULL;
      }
    }
  }
  /* groups of later batches that had a state: as it was */
  for (uint32_t r = 0; resume && r < resume->num_running; r++) {
    const hg_ir_group_state *before = &resume->running[r];
    if (before->group >= batch_end && !keep_group(st, before)) {
      hg_ir_ndrange_state_free(st);
      return NULL;
    }
  }
  return st;
}

/* The most work-items of one group that fit the tile's L1 with the kernel's frames, its static
 * local memory plus the profile's whole local memory for __local arguments (the layout
 * rv_launch makes). */
size_t hg_rv_code_work_group_size(hg_rv_backend *rb, const hg_ir_function *f, const hg_rv_kernel_code *code) {
  if (!rb->sim)
    return HG_PROFILE_MAX_WORK_GROUP_SIZE;
  uint64_t l1 = hg_sim_get_config(rb->sim)->l1_size;
  uint64_t fixed = align16(f->local_static_size) + align16(HG_PROFILE_LOCAL_MEM_SIZE) + HG_RV_WG_WORDS * 8 + 16 +
                   code->frame_align + HG_RV_STACK_BYTES;
  uint64_t per_item = HG_RV_WI_BYTES + code->frame_size;
  uint64_t fit = l1 > fixed ? (l1 - fixed) / per_item : 0;
  return fit < HG_PROFILE_MAX_WORK_GROUP_SIZE ? (size_t)fit : HG_PROFILE_MAX_WORK_GROUP_SIZE;
}

size_t hg_rv_kernel_work_group_size(hg_backend *be, hg_dev_kernel *k) {
  return hg_rv_code_work_group_size(hg_rv_of(be), k->fn, k->code);
}

/* One launch: a plain kernel_launch (run == false: no polls, no records), or a kernel_run that
 * may resume from `resume` and may stop (then *stopped). */
static cl_int rv_launch(hg_backend *be, hg_dev_kernel *k, const hg_launch *launch, bool run,
                        const hg_ir_ndrange_state *resume, hg_ir_ndrange_state **stopped, uint64_t *device_ns) {
  hg_rv_backend *rb = hg_rv_of(be);
  hg_sim_machine *sim = rb->sim;
  const hg_ir_function *f = k->fn;
  if (device_ns)
    *device_ns = 0;
  if (stopped)
    *stopped = NULL;
  if (!sim)
    return CL_OUT_OF_RESOURCES;
  if (launch->num_args != f->num_params)
    return CL_INVALID_KERNEL_ARGS;
  /* the range: dimensions beyond work_dim are 1 */
  uint64_t global[3], local[3], groups[3], offset[3];
  uint64_t ngroups = 1, nwi = 1;
  for (unsigned d = 0; d < 3; d++) {
    bool used = d < launch->work_dim;
    global[d] = used ? launch->global_size[d] : 1;
    local[d] = used && launch->local_size[d] ? launch->local_size[d] : 1;
    offset[d] = used ? launch->global_offset[d] : 0;
    groups[d] = global[d] / local[d] + (global[d] % local[d] != 0); /* (global + local - 1) wrapped near 2^64 */
    ngroups *= groups[d];
    nwi *= local[d];
  }
  const hg_ir_function *step = &k->prog->module->functions[k->code->step];
  unsigned ncores = hg_sim_core_count(sim);
  /* local memory and the L1 layout */
  uint64_t local_end = f->local_static_size;
  uint64_t *local_at = calloc(f->num_params ? f->num_params : 1, sizeof *local_at);
  uint64_t *byval_at = malloc((f->num_params ? f->num_params : 1) * sizeof *byval_at);
  hg_rv_arg_layout *lay = malloc((f->num_params ? f->num_params : 1) * sizeof *lay);
  hg_sim_range *ranges = calloc(f->num_params + f->num_local_vars + 5, sizeof *ranges);
  uint64_t *arg_addr = calloc(f->num_params ? f->num_params : 1, sizeof *arg_addr);
  uint32_t *scratch = calloc(f->num_params ? f->num_params : 1, sizeof *scratch);
  hg_sim_job *jobs = NULL;
  uint64_t *job_group = NULL;
  hg_sim_job_result *results = NULL;
  cl_int rc = CL_OUT_OF_HOST_MEMORY;
  uint64_t block = 0, pf_block = 0, save_block = 0, resume_block = 0;
  if (!local_at || !byval_at || !lay || !ranges || !arg_addr || !scratch)
    goto done;
  /* the neutral state's local memory ends where the last __local argument does (ir-spec §7);
   * the L1 copy of it is rounded up to 16 bytes (the driver copies words) */
  uint64_t local_neutral = local_end;
  for (uint32_t i = 0; i < f->num_params; i++)
    if (launch->args[i].kind == HG_ARG_LOCAL) {
      uint64_t align = hg_ir_local_arg_align(&f->args[i]);
      local_at[i] = (local_neutral + align - 1) / align * align;
      local_neutral = local_at[i] + launch->args[i].size;
    }
  local_end = align16(local_neutral);
  /* struct arguments: each work-item's copy after the step function's slots (as the driver) */
  uint64_t copy_at = align16(step->private_size);
  for (uint32_t i = 0; i < f->num_params; i++) {
    byval_at[i] = UINT64_MAX;
    if (f->args[i].kind == HG_KARG_VALUE && f->param_types[i].scalar == HG_IR_PTR) {
      byval_at[i] = copy_at;
      copy_at += align16(f->args[i].size);
    }
  }
  uint64_t l1 = hg_sim_get_config(sim)->l1_size;
  uint64_t wg_at = align16(local_end), wi_at = wg_at + HG_RV_WG_WORDS * 8;
  uint64_t fa = k->code->frame_align, frames_at = (wi_at + nwi * HG_RV_WI_BYTES + fa - 1) / fa * fa;
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
  /* a stoppable run: the state layout, the records, the resumed groups */
  hg_rv_state_io io = {.module = k->prog->module, .kernel = f, .step = step, .plan = &k->code->plan,
                       .layout = &k->layout, .image = &k->prog->image, .launch = launch, .local_at = local_at,
                       .arg_addr = arg_addr, .byval_at = byval_at, .frames_at = frames_at, .frame_size = frame,
                       .rec_frames = align16(nwi * HG_RV_WI_BYTES), .local_bytes = local_neutral};
  io.rec_local = io.rec_frames + nwi * frame;
  io.rec_size = align16(io.rec_local + local_end);
  memcpy(io.global, global, sizeof global);
  memcpy(io.local, local, sizeof local);
  memcpy(io.groups, groups, sizeof groups);
  if (resume) {
    char why[256] = "";
    if (strcmp(resume->kernel, f->name) || !same_range(resume, launch, offset, global, local) ||
        resume->local_bytes != local_neutral ||
        !hg_ir_ndrange_state_check(resume, k->prog->module, f, &k->layout, why, sizeof why)) {
      HG_LOG(HG_LOG_SIM, "riscv: %s: the state to resume does not fit this launch (%s)", f->name, why);
      rc = CL_INVALID_VALUE;
      goto done;
    }
  }
  /* the jobs: every group not done yet, BATCH_GROUPS at a time */
  size_t batch = ngroups < BATCH_GROUPS ? (size_t)ngroups : BATCH_GROUPS;
  jobs = malloc((batch ? batch : 1) * sizeof *jobs);
  job_group = malloc((batch ? batch : 1) * sizeof *job_group);
  results = calloc(batch ? batch : 1, sizeof *results);
  if (!jobs || !job_group || !results)
    goto done;
  /* descriptor + argument block in one DRAM allocation */
  uint32_t args_size = hg_rv_arg_layout_of(f, lay);
  /* image descriptors (rt_image.h) follow the argument block, one per image argument */
  uint32_t nimages = 0;
  for (uint32_t i = 0; i < f->num_params; i++)
    nimages += launch->args[i].kind == HG_ARG_IMAGE;
  uint64_t desc_bytes = HG_RV_D_WORDS * 8, block_size = desc_bytes + args_size + (uint64_t)nimages * HG_RT_IMAGE_BYTES;
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
  /* one save record per core that runs a job: a stopping core saves one group, then starts no
   * other. Without room for them the launch still runs, unstoppable inside (never polls). */
  uint64_t save_records = 0;
  if (run) {
    uint64_t pending = 0;
    for (uint64_t g = 0; g < ngroups; g++)
      pending += !(resume && resume->group_status[g] == HG_GROUP_DONE);
    save_records = pending < ncores ? pending : ncores;
  }
  if (save_records && hg_sim_dram_alloc(sim, io.rec_size * save_records, &save_block) != HG_SIM_OK) {
    HG_LOG(HG_LOG_SIM, "riscv: %s: no DRAM for %llu save records of %llu bytes: it runs without stopping inside",
           f->name, (unsigned long long)save_records, (unsigned long long)io.rec_size);
    save_block = 0;
  }
  if (resume && resume->num_running &&
      hg_sim_dram_alloc(sim, io.rec_size * resume->num_running, &resume_block) != HG_SIM_OK) {
    resume_block = 0;
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
  /* a plain launch never polls: its checks count down from 2^64 */
  desc[HG_RV_D_POLL_INTERVAL] =
      save_block && k->code->plan.can_stop ? (launch->stop_after ? 1 : hg_safepoint_interval()) : UINT64_MAX;
  desc[HG_RV_D_REC_FRAMES] = io.rec_frames;
  desc[HG_RV_D_REC_LOCAL] = io.rec_local;
  desc[HG_RV_D_LOCAL_BYTES] = local_end;
  size_t nranges = 0;
  ranges[nranges++] = (hg_sim_range){block, block_size, false};
  if (pf_block) {
    memset(hg_sim_dram_ptr(sim, pf_block, 8), 0, 8);
    desc[HG_RV_D_PRINTF] = pf_block;
    desc[HG_RV_D_PRINTF_SIZE] = pf_cap;
    ranges[nranges++] = (hg_sim_range){pf_block, pf_cap + 8, true};
  }
  if (save_block)
    ranges[nranges++] = (hg_sim_range){save_block, io.rec_size * save_records, true};
  if (resume_block)
    ranges[nranges++] = (hg_sim_range){resume_block, io.rec_size * resume->num_running, false};
  if (k->prog->image.data_size)
    ranges[nranges++] = (hg_sim_range){k->prog->image.data_base, k->prog->image.data_size, true};
  nranges += hg_rv_launch_windows(k->prog->module, f, launch, local_at, ranges + nranges, arg_addr, scratch);
  uint32_t image_at = 0;
  for (uint32_t i = 0; i < f->num_params; i++) {
    const hg_launch_arg *a = &launch->args[i];
    uint8_t *slot = args + lay[i].offset;
    switch (a->kind) {
    case HG_ARG_BUFFER:
    case HG_ARG_LOCAL:
      memcpy(slot, &arg_addr[i], 8);
      break;
    case HG_ARG_VALUE:
      memcpy(slot, a->value, a->size < lay[i].size ? a->size : lay[i].size);
      break;
    case HG_ARG_IMAGE: {
      if (!arg_addr[i]) { /* no pixels, or not inside its allocation */
        rc = CL_INVALID_MEM_OBJECT;
        goto done;
      }
      uint64_t at = desc_bytes + args_size + (uint64_t)image_at++ * HG_RT_IMAGE_BYTES;
      hg_rv_image_descriptor(a, arg_addr[i], (uint8_t *)desc + at);
      uint64_t dev = block + at;
      memcpy(slot, &dev, 8);
      break;
    }
    case HG_ARG_SAMPLER: {
      uint32_t bits = 0;
      if (a->value)
        memcpy(&bits, a->value, sizeof bits);
      memcpy(slot, &bits, sizeof bits);
      break;
    }
    }
  }
  size_t njobs = 0;
  uint64_t gstart = 0, gend = 0, cycles = 0, t_start = hg_host_clock_ns();
  uint64_t deadline = launch->time_limit_ns ? t_start + launch->time_limit_ns : 0;
  bool unfinished = false, stopped_between = false, timed_out = false, stopping = false, bad_record = false;
  hg_sim_launch sl = {0};
  pthread_mutex_lock(&rb->lock);
  int src = HG_SIM_OK;
  if (rb->loaded_program != k->prog->id) {
    src = hg_sim_load_code(sim, HG_SIM_CODE_BASE, k->prog->image.code, k->prog->image.code_size);
    rb->loaded_program = src == HG_SIM_OK ? k->prog->id : 0;
  }
  while (src == HG_SIM_OK && gstart < ngroups) {
    gend = ngroups - gstart < BATCH_GROUPS ? ngroups : gstart + BATCH_GROUPS;
    /* between batches: a stop asked for ends the launch here, the time limit too */
    if (run && atomic_load(&launch->stop->requested)) {
      stopped_between = true;
      break;
    }
    uint64_t now = hg_host_clock_ns();
    if (deadline && now >= deadline) {
      timed_out = true;
      break;
    }
    njobs = 0;
    for (uint64_t g = gstart; g < gend; g++) {
      if (resume && resume->group_status[g] == HG_GROUP_DONE)
        continue;
      uint64_t from = 0;
      const hg_ir_group_state *gs = resume ? hg_ir_ndrange_state_group(resume, g) : NULL;
      if (gs) {
        size_t r = (size_t)(gs - resume->running);
        from = resume_block + r * io.rec_size;
        char why[256] = "";
        if (!hg_rv_state_to_record(&io, gs, hg_sim_dram_ptr(sim, from, io.rec_size), why, sizeof why)) {
          HG_LOG(HG_LOG_SIM, "riscv: %s: cannot resume: %s", f->name, why);
          bad_record = true;
          break;
        }
      }
      uint64_t to = save_block ? save_block + (njobs % ncores) * io.rec_size : 0;
      job_group[njobs] = g;
      jobs[njobs++] = (hg_sim_job){.pc = k->entry, .a = {block, g, to, from}};
    }
    if (bad_record)
      break;
    if (!njobs) {
      gstart = gend;
      continue;
    }
    sl = (hg_sim_launch){.jobs = jobs, .njobs = njobs, .ranges = ranges, .nranges = nranges, .results = results,
                         .time_limit_ns = deadline ? deadline - now : 0};
    if (run) {
      sl.stop = &launch->stop->requested;
      sl.stop_after = launch->stop_after;
    }
    /* the per-core counters cost a little: only when HETGPU_DEBUG=sim asks for them */
    if (hg_log_mask & HG_LOG_SIM)
      sl.stats = calloc(hg_sim_core_count(sim), sizeof *sl.stats);
    uint64_t t_batch = hg_host_clock_ns();
    src = hg_sim_run(sim, &sl);
    if (sl.stats && src == HG_SIM_OK)
      log_counters(f->name, sim, sl.stats, hg_host_clock_ns() - t_batch);
    free(sl.stats);
    cycles += sl.max_cycles; /* the batches run one after the other */
    stopping |= sl.stopped;
    if (sl.out_len) {
      fwrite(sl.out, 1, sl.out_len, stdout);
      fflush(stdout);
    }
    free(sl.out);
    sl.out = NULL;
    for (size_t j = 0; src == HG_SIM_OK && run && j < njobs; j++)
      unfinished |= results[j].status != HG_SIM_JOB_DONE || results[j].ret[0] != HG_RV_JOB_DONE;
    if (src != HG_SIM_OK || unfinished)
      break; /* gstart stays the stopped batch's first group */
    gstart = gend;
  }
  pthread_mutex_unlock(&rb->lock);
  if (device_ns)
    *device_ns = cycles; /* 1 GHz: one cycle a nanosecond */
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
  if (bad_record) {
    rc = CL_INVALID_VALUE; /* a resumed group's state did not make a record */
  } else if (src == HG_SIM_EFAULT) {
    const hg_sim_fault *ft = &sl.fault;
    HG_LOG(HG_LOG_SIM, "riscv: %s faulted: %s at pc 0x%llx (address 0x%llx, insn 0x%08x) in work-group %llu on core %u",
           f->name, hg_sim_fault_name(ft->kind), (unsigned long long)ft->pc, (unsigned long long)ft->addr, ft->insn,
           (unsigned long long)(ft->job < njobs ? job_group[ft->job] : 0), ft->core);
    rc = ft->kind == HG_SIM_FAULT_TIME_LIMIT ? HG_ERR_TIME_LIMIT : CL_OUT_OF_RESOURCES;
  } else if (src != HG_SIM_OK) {
    HG_LOG(HG_LOG_SIM, "riscv: launch of %s refused by the simulator (%d)", f->name, src);
    rc = src == HG_SIM_ENOMEM ? CL_OUT_OF_HOST_MEMORY : CL_OUT_OF_RESOURCES;
  } else if (timed_out) {
    HG_LOG(HG_LOG_SIM, "riscv: %s passed its time limit between batches of work-groups (at group %llu of %llu)",
           f->name, (unsigned long long)gstart, (unsigned long long)ngroups);
    rc = HG_ERR_TIME_LIMIT;
  } else {
    HG_LOG(HG_LOG_SIM, "riscv: %s: %llu work-groups, %llu cycles on the busiest core%s", f->name,
           (unsigned long long)ngroups, (unsigned long long)cycles, stopping || stopped_between ? " (stopping)" : "");
    rc = CL_SUCCESS;
    if (unfinished || stopped_between) {
      /* unfinished: the batch [gstart, gend) stopped; between: nothing of [gstart, ...) ran */
      *stopped = collect_stopped(&io, launch, resume, job_group, unfinished ? njobs : 0, results,
                                 save_block ? hg_sim_dram_ptr(sim, save_block, io.rec_size * save_records) : NULL,
                                 ncores, gstart, unfinished ? gend : gstart);
      rc = *stopped ? HG_LAUNCH_STOPPED : CL_OUT_OF_HOST_MEMORY;
    }
  }
done:
  if (block)
    hg_sim_dram_free(sim, block);
  if (pf_block)
    hg_sim_dram_free(sim, pf_block);
  if (save_block)
    hg_sim_dram_free(sim, save_block);
  if (resume_block)
    hg_sim_dram_free(sim, resume_block);
  free(jobs);
  free(job_group);
  free(results);
  free(local_at);
  free(arg_addr);
  free(scratch);
  free(byval_at);
  free(lay);
  free(ranges);
  return rc;
}

cl_int hg_rv_kernel_launch(hg_backend *be, hg_dev_kernel *k, const hg_launch *launch, uint64_t *device_ns) {
  return rv_launch(be, k, launch, false, NULL, NULL, device_ns);
}

cl_int hg_rv_kernel_run(hg_backend *be, hg_dev_kernel *k, const hg_launch *launch,
                        const struct hg_ir_ndrange_state *resume, struct hg_ir_ndrange_state **stopped,
                        uint64_t *device_ns) {
  if (!launch->stop) {
    *stopped = NULL;
    return CL_INVALID_VALUE;
  }
  return rv_launch(be, k, launch, true, resume, stopped, device_ns);
}

/* The simulator polls the request's own flag (hg_sim_launch.stop): once the caller has set it,
 * every running launch that polls it sees it at its next STOP_POLL and starts no further
 * work-group; nothing else to do, and nothing to wait for. */
void hg_rv_kernel_stop(hg_backend *be, hg_stop_request *stop) { atomic_thread_fence(memory_order_seq_cst); }
