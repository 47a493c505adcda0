/* cli/cmd_run — `lanelab run CODEOBJ KERNEL --grid X[,Y,Z] --block X[,Y,Z] [--arg [NAME=]SPEC]...
 *                [--kernarg FILE [--buf NAME@OFF[,OFF..]:SPEC]...]
 *                [--backend auto|hip|emu] [--dump-regs FILE] [--lds-bytes N] [--budget N] [--strict-memory]`
 * (README.md, "lanelab run"; docs/run.md for kernel names, named and raw arguments). Runs one kernel on the runtime's device. Output files
 * (out:/io: specs, --dump-regs) are written atomically, and only after a successful run; that each
 * can be written is checked before the run, so a bad output path costs no run and never leaves
 * some outputs written and others not. A fault prints the emulator's one-line message (arch,
 * kernel, PC, instruction, lane, address), exit 1. --budget sets the emulator's per-wave
 * instruction budget (default 50 M): a kernel that never ends stops with a "budget exceeded"
 * fault. Memory-model warnings (docs/emulator-choices.md) are printed once per kernel PC and counted
 * in a summary line; --strict-memory makes them faults. On the emulator every run ends with the
 * fidelity line (docs/fidelity.md: how many executed instructions rested on stated choices, and
 * which); --strict-fidelity fails the run (exit 1, no output files) when any did. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "reports/report.h"
#include "runtime/rt.h"
#include "util/util.h"

static const char *usage =
    "usage: lanelab run CODEOBJ KERNEL --grid X[,Y,Z] --block X[,Y,Z] [--arg [NAME=]SPEC]... "
    "[--kernarg FILE [--buf NAME@OFF[,OFF..]:SPEC]...] "
    "[--backend auto|hip|emu] [--dump-regs FILE] [--lds-bytes N] [--budget N] [--strict-memory] [--strict-fidelity]\n"
    "  [--schedule roundrobin|adversarial|random:SEED] [--dump-at PC[:N]] [--racecheck[=global]] [--initcheck]\n"
    "  [--trace SPEC [--trace-out DIR]]\n"
    "  KERNEL: the symbol or the C++ name (row_softmax, ns::gemm<128>, 'scale(float*, float)')\n"
    "  SPEC, one per kernel argument, in order or as NAME=SPEC by metadata name: in:FILE[:BYTES]  out:N:FILE  "
    "io:FILE:OUTFILE  u32:V  i32:V  u64:V  f32:V\n"
    "  --kernarg FILE: the explicit arguments' raw bytes (packed structs); --buf puts a buffer's address at "
    "byte offsets OFF of them (SPEC in:, out: or io:)";

/* "X[,Y,Z]", each >= 1, missing ones 1. */
static bool parse_dims(const char *opt, const char *s, uint32_t d[3], ll_err *err) {
  d[0] = d[1] = d[2] = 1;
  char *copy = ll_xstrdup(s), *save = NULL;
  int n = 0;
  bool ok = true;
  for (char *t = strtok_r(copy, ",", &save); t && ok; t = strtok_r(NULL, ",", &save)) {
    uint64_t v;
    if (n == 3 || !ll_parse_u64(t, &v) || v == 0 || v > UINT32_MAX) ok = false;
    else d[n++] = (uint32_t)v;
  }
  free(copy);
  if (!ok || n == 0 || s[strlen(s) - 1] == ',' || s[0] == ',' || strstr(s, ",,")) {
    ll_seterr(err, LL_EXIT_USAGE, "%s '%s': expected X[,Y,Z] with positive integers", opt, s);
    return false;
  }
  return true;
}

typedef struct {
  const char *co_path, *kernel, *dump, *grid_s, *block_s, *kernarg;
  rt_backend backend;
  uint32_t grid[3], block[3], lds;
  uint64_t budget; /* per-wave instruction budget, 0 = the emulator's default */
  emu_sched sched;
  uint64_t sched_seed;
  bool sched_given;
  uint64_t dump_at, dump_at_n; /* --dump-at PC[:N] (N >= 1, default 1) */
  bool race, race_global, init;
  bool strict_memory; /* --strict-memory: memory-model warnings are faults */
  bool strict_fidelity; /* --strict-fidelity: an instruction resting on a stated choice fails the run */
  const char *trace, *trace_out;
  report_trace_tile *tiles;
  size_t ntiles;
  const char *expect_a, *expect_b;
  rt_argspec *specs;
  size_t nspecs;
  rt_bufspec *bufs; /* --buf, with --kernarg */
  size_t nbufs;
} run_opts;

static int parse(int argc, char **argv, run_opts *o, ll_err *err) {
  const char *pos[2];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
      printf("%s\n", usage);
      return -1;
    }
    bool takes = !strcmp(a, "--grid") || !strcmp(a, "--block") || !strcmp(a, "--arg") ||
                 !strcmp(a, "--backend") || !strcmp(a, "--dump-regs") || !strcmp(a, "--lds-bytes") ||
                 !strcmp(a, "--budget") || !strcmp(a, "--kernarg") || !strcmp(a, "--buf") ||
                 !strcmp(a, "--schedule") || !strcmp(a, "--dump-at") ||
                 !strcmp(a, "--trace") || !strcmp(a, "--trace-out") || !strcmp(a, "--tile") ||
                 !strcmp(a, "--expect-a") || !strcmp(a, "--expect-b");
    if (!strcmp(a, "--racecheck") || !strcmp(a, "--racecheck=global")) {
      o->race = true;
      o->race_global |= !strcmp(a, "--racecheck=global");
      continue;
    }
    if (!strcmp(a, "--initcheck")) {
      o->init = true;
      continue;
    }
    if (!strcmp(a, "--strict-memory")) {
      o->strict_memory = true;
      continue;
    }
    if (!strcmp(a, "--strict-fidelity")) {
      o->strict_fidelity = true;
      continue;
    }
    if (takes) {
      if (i + 1 >= argc) { ll_seterr(err, LL_EXIT_USAGE, "%s needs a value\n%s", a, usage); return LL_EXIT_USAGE; }
      const char *v = argv[++i];
      if (!strcmp(a, "--grid")) o->grid_s = v;
      else if (!strcmp(a, "--block")) o->block_s = v;
      else if (!strcmp(a, "--dump-regs")) o->dump = v;
      else if (!strcmp(a, "--kernarg")) o->kernarg = v;
      else if (!strcmp(a, "--buf")) {
        o->bufs = ll_xrealloc(o->bufs, (o->nbufs + 1) * sizeof *o->bufs);
        if (!rt_bufspec_parse(v, &o->bufs[o->nbufs], err)) return LL_EXIT_USAGE;
        o->nbufs++;
      }
      else if (!strcmp(a, "--trace")) o->trace = v;
      else if (!strcmp(a, "--trace-out")) o->trace_out = v;
      else if (!strcmp(a, "--expect-a")) o->expect_a = v;
      else if (!strcmp(a, "--expect-b")) o->expect_b = v;
      else if (!strcmp(a, "--tile")) {
        o->tiles = ll_xrealloc(o->tiles, (o->ntiles + 1) * sizeof *o->tiles);
        if (!report_trace_tile_parse(v, &o->tiles[o->ntiles], err)) return LL_EXIT_USAGE;
        o->ntiles++;
      }
      else if (!strcmp(a, "--schedule")) {
        o->sched_given = true;
        if (!strcmp(v, "roundrobin")) o->sched = EMU_SCHED_ROUND_ROBIN;
        else if (!strcmp(v, "adversarial")) o->sched = EMU_SCHED_ADVERSARIAL;
        else if (!strncmp(v, "random:", 7) && ll_parse_u64(v + 7, &o->sched_seed)) o->sched = EMU_SCHED_RANDOM;
        else {
          ll_seterr(err, LL_EXIT_USAGE, "--schedule '%s': expected roundrobin, adversarial or random:SEED", v);
          return LL_EXIT_USAGE;
        }
      } else if (!strcmp(a, "--dump-at")) {
        char *c = ll_xstrdup(v), *colon = strchr(c, ':');
        if (colon) *colon = 0;
        o->dump_at_n = 1;
        bool ok = ll_parse_u64(c, &o->dump_at) && o->dump_at != 0 &&
                  (!colon || (ll_parse_u64(colon + 1, &o->dump_at_n) && o->dump_at_n > 0));
        free(c);
        if (!ok) {
          ll_seterr(err, LL_EXIT_USAGE, "--dump-at '%s': expected PC[:N], PC an instruction address (e.g. 0x1a40), "
                    "N >= 1 the execution to stop before", v);
          return LL_EXIT_USAGE;
        }
      }
      else if (!strcmp(a, "--backend")) {
        if (!rt_backend_parse(v, &o->backend)) {
          ll_seterr(err, LL_EXIT_USAGE, "--backend '%s': expected auto, hip or emu", v);
          return LL_EXIT_USAGE;
        }
      } else if (!strcmp(a, "--lds-bytes")) {
        uint64_t n;
        if (!ll_parse_u64(v, &n) || n > UINT32_MAX) {
          ll_seterr(err, LL_EXIT_USAGE, "--lds-bytes '%s': expected a byte count", v);
          return LL_EXIT_USAGE;
        }
        o->lds = (uint32_t)n;
      } else if (!strcmp(a, "--budget")) {
        /* 0 would mean "the default" to the emulator: refuse it rather than silently ignore it */
        if (!ll_parse_u64(v, &o->budget) || o->budget == 0) {
          ll_seterr(err, LL_EXIT_USAGE, "--budget '%s': expected a positive instruction count per wave", v);
          return LL_EXIT_USAGE;
        }
      } else {
        o->specs = ll_xrealloc(o->specs, (o->nspecs + 1) * sizeof *o->specs);
        if (!rt_argspec_parse_any(v, &o->specs[o->nspecs], err)) return LL_EXIT_USAGE;
        o->nspecs++;
      }
    } else if (a[0] == '-' && a[1]) {
      ll_seterr(err, LL_EXIT_USAGE, "run: unknown option '%s'\n%s", a, usage);
      return LL_EXIT_USAGE;
    } else if (npos < 2) {
      pos[npos++] = a;
    } else {
      ll_seterr(err, LL_EXIT_USAGE, "run: unexpected argument '%s'\n%s", a, usage);
      return LL_EXIT_USAGE;
    }
  }
  if (npos < 2 || !o->grid_s || !o->block_s) {
    ll_seterr(err, LL_EXIT_USAGE, "run needs CODEOBJ, KERNEL, --grid and --block\n%s", usage);
    return LL_EXIT_USAGE;
  }
  if (o->dump_at && !o->dump) {
    ll_seterr(err, LL_EXIT_USAGE, "--dump-at writes the registers to --dump-regs FILE: give both");
    return LL_EXIT_USAGE;
  }
  if ((o->trace_out || o->ntiles || o->expect_a || o->expect_b) && !o->trace) {
    ll_seterr(err, LL_EXIT_USAGE, "%s needs --trace SPEC (it describes what the trace shows)",
              o->trace_out ? "--trace-out" : o->ntiles ? "--tile" : o->expect_a ? "--expect-a" : "--expect-b");
    return LL_EXIT_USAGE;
  }
  o->co_path = pos[0];
  o->kernel = pos[1];
  if (!parse_dims("--grid", o->grid_s, o->grid, err) || !parse_dims("--block", o->block_s, o->block, err))
    return LL_EXIT_USAGE;
  if (o->kernarg && o->nspecs) {
    ll_seterr(err, LL_EXIT_USAGE, "--arg '%s' with --kernarg: the --kernarg bytes hold every explicit argument; "
              "give buffers with --buf NAME@OFFSET:SPEC", o->specs[0].text);
    return LL_EXIT_USAGE;
  }
  if (o->nbufs && !o->kernarg) {
    ll_seterr(err, LL_EXIT_USAGE, "--buf '%s' needs --kernarg (the bytes its address is written into); without "
              "it give buffers with --arg", o->bufs[0].name);
    return LL_EXIT_USAGE;
  }
  return 0;
}

/* Every output is checked before the run (the run may be long, and with several outputs a late
 * failure would leave some written and others not): ll_out_check refuses a path that is a
 * device, FIFO, socket or directory, a symlink leading out of the named directory, a read-only
 * target, a missing or unwritable directory. The write after the run goes to the very directory
 * that was checked (ll_out_write), or not at all. */
static bool check_output(const char *what, const char *path, ll_outpath *o, ll_err *err) {
  if (ll_out_check(path, o, err)) return true;
  ll_err_prefix(err, "%s", what);
  return false;
}

/* The bytes of an in:/io: input: a regular file up to LL_CAP_DATA (what a kernel buffer may be),
 * refused before it is read if larger; with in:FILE:BYTES exactly BYTES bytes, from any file. */
static void *read_input(const char *opt, const rt_argspec *s, size_t *size, ll_err *err) {
  if (s->size) {
    if (s->size > LL_CAP_DATA) {
      ll_seterr(err, LL_EXIT_USAGE, "%s '%s': %llu bytes is more than the %llu a kernel buffer may have", opt, s->text,
                (unsigned long long)s->size, (unsigned long long)LL_CAP_DATA);
      return NULL;
    }
    void *d = ll_read_exact(s->file, s->size, err);
    if (d) *size = (size_t)s->size;
    else ll_err_prefix(err, "%s '%s'", opt, s->text);
    return d;
  }
  struct stat st;
  if (stat(s->file, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "%s '%s': %s is not a regular file, so its size is unknown: state how many "
              "bytes to read with in:%s:BYTES", opt, s->text, s->file, s->file);
    return NULL;
  }
  void *d = ll_read_file_max(s->file, LL_CAP_DATA, size, err);
  if (!d) ll_err_prefix(err, "%s '%s'", opt, s->text);
  return d;
}

/* --dump-at PC:N: the registers of every wave before its N-th execution of PC (the emulator calls
 * on_snap each time a wave reaches PC, under its lock) */
typedef struct {
  rt_regdump *dump;
  uint64_t n;
  uint32_t gx, gy, nwaves;
  uint64_t *count; /* per (workgroup, wave) */
  uint64_t pad;
} dump_at_ctx;

static void dump_at_cb(void *user, const emu_wave_view *w) {
  dump_at_ctx *c = user;
  uint64_t wg = w->wg[0] + (uint64_t)c->gx * (w->wg[1] + (uint64_t)c->gy * w->wg[2]);
  if (++c->count[wg * c->nwaves + w->wave] == c->n) rt_regdump_cb(c->dump, w);
}

/* --expect-a/-b: each mismatching MFMA instance is printed; any makes the run exit 1 */
static void expect_cb(void *user, const report_trace_expect_result *r) {
  if (!r->mismatches) {
    printf("expect: MFMA #%llu %c matches\n", (unsigned long long)r->seq, r->operand ? 'B' : 'A');
    return;
  }
  *(bool *)user = true;
  printf("expect: MFMA #%llu %c: %d mismatching elements; first: %s\n", (unsigned long long)r->seq,
         r->operand ? 'B' : 'A', r->mismatches, r->first);
}

/* memory-model warnings: printed as they come (once per kernel PC; the emulator serializes the
 * calls), counted for the summary line */
static void warn_cb(void *user, const emu_fault *w) {
  ++*(size_t *)user;
  fprintf(stderr, "lanelab: warning: %s\n", w->msg);
}

typedef struct {
  void *host;      /* in/io contents, then the result */
  size_t size;
  uint64_t addr;
} hostbuf;

/* Everything one run holds, so each step below is a function of its own. */
typedef struct run_state {
  run_opts o;
  ll_err err;
  rt_device *dev;
  rt_module *mod;
  rt_regdump *dump;
  hostbuf *bufs;
  rt_arg *args;
  void *bytes;
  size_t nbytes;
  char *kname;
  emu_arch arch;
  uint8_t *raw;             /* --kernarg bytes */
  size_t nraw;
  const char *opt;          /* what the buffer specs came from, for messages */
  emu_observer *obs;
  dump_at_ctx dump_at;
  bool expect_fail;
  size_t nwarn;
  ll_outpath *outs, dumpout;
} run_state;

/* Code object and kernel first: their metadata decides everything else. */
static bool load_kernel(run_state *R) {
  run_opts *o = &R->o;
  if (!(R->bytes = ll_read_file_max(o->co_path, LL_CAP_CODEOBJ, &R->nbytes, &R->err))) return false;
  emu_codeobj *co = emu_codeobj_load(R->bytes, R->nbytes, o->co_path, &R->err);
  if (!co) return false;
  R->arch = co->arch;
  const emu_kernel *k0 = emu_codeobj_kernel(co, o->kernel, &R->err); /* symbol or C++ name (emu.h) */
  bool args_ok = k0 != NULL;
  if (k0) R->kname = ll_xstrdup(k0->name); /* the symbol, from here on */
  if (k0 && o->kernarg) {
    /* Raw bytes: sized against the metadata, buffer offsets inside them; the buffers then go
     * through the same input/output handling as --arg's, in --buf order. */
    args_ok = (R->raw = rt_kernarg_read(o->kernarg, k0, &R->nraw, &R->err)) && rt_kernarg_check(k0, R->nraw, &R->err) &&
              rt_kernarg_patch(R->raw, R->nraw, o->bufs, o->nbufs, NULL, &R->err);
    o->specs = ll_xcalloc(o->nbufs + 1, sizeof *o->specs);
    for (size_t i = 0; i < o->nbufs; i++) {
      o->specs[o->nspecs++] = o->bufs[i].spec; /* moved: freed once, as a spec */
      memset(&o->bufs[i].spec, 0, sizeof o->bufs[i].spec);
    }
    R->opt = "--buf";
  } else if (k0) {
    /* positional and NAME= specs into argument order, then each against its metadata */
    args_ok = rt_argspecs_order(k0, o->specs, o->nspecs, &R->err);
    for (size_t i = 0; args_ok && i < o->nspecs; i++)
      if (!(args_ok = rt_check_arg_kind(k0, i, o->specs[i].value.kind, &R->err)))
        ll_err_prefix(&R->err, "--arg '%s'", o->specs[i].text);
  }
  emu_codeobj_free(co);
  return args_ok;
}

/* One buffer argument's host side: an input's bytes, or an output's zeros. */
static bool host_buffer(run_state *R, size_t i) {
  rt_argspec *s = &R->o.specs[i];
  hostbuf *b = &R->bufs[i];
  if (s->kind == RT_SPEC_IN || s->kind == RT_SPEC_IO) {
    if (!(b->host = read_input(R->opt, s, &b->size, &R->err))) return false;
    if (b->size == 0) {
      ll_seterr(&R->err, LL_EXIT_USAGE, "%s '%s': %s is empty; a buffer needs at least one byte", R->opt, s->text, s->file);
      return false;
    }
  } else if (s->kind == RT_SPEC_OUT) {
    /* N comes from the user: a size the host cannot provide is bad input, not an abort
     * (ll_xcalloc aborts on out-of-memory: `out:99999999999999:f` crashed with SIGABRT) */
    b->size = s->size;
    if (s->size > LL_CAP_DATA) {
      ll_seterr(&R->err, LL_EXIT_USAGE, "%s '%s': %llu bytes is more than the %llu a kernel buffer may have",
                R->opt, s->text, (unsigned long long)s->size, (unsigned long long)LL_CAP_DATA);
      return false;
    }
    if (s->size > SIZE_MAX || !(b->host = calloc((size_t)s->size, 1))) {
      ll_seterr(&R->err, LL_EXIT_USAGE, "%s '%s': cannot allocate a buffer of %llu bytes", R->opt, s->text,
                (unsigned long long)s->size);
      return false;
    }
  }
  if (s->outfile) {
    char *what = ll_fmt("%s '%s'", R->opt, s->text);
    bool ok = check_output(what, s->outfile, &R->outs[i], &R->err);
    free(what);
    if (!ok) return false;
  }
  return true;
}

/* Inputs before the device, so bad files fail fast; every output checked before the run. */
static bool read_inputs(run_state *R) {
  run_opts *o = &R->o;
  R->bufs = ll_xcalloc(o->nspecs + 1, sizeof *R->bufs);
  R->outs = ll_xcalloc(o->nspecs + 1, sizeof *R->outs);
  for (size_t i = 0; i < o->nspecs; i++)
    if (!host_buffer(R, i)) return false;
  if (o->dump && !check_output("--dump-regs", o->dump, &R->dumpout, &R->err)) return false;
  if (o->budget && o->backend == RT_HIP) {
    ll_seterr(&R->err, LL_EXIT_USAGE, "--budget is the emulator's instruction budget: use --backend emu or auto");
    return false;
  }
  return true;
}

/* The backend (options only the emulator has choose it under auto), the device and the module. */
static bool open_device(run_state *R) {
  run_opts *o = &R->o;
  rt_backend want = o->backend;
  /* options only the emulator has (the first one given names the reason) */
  const char *emu_opt = o->dump ? "--dump-regs" : o->sched_given ? "--schedule" : o->race ? "--racecheck"
                        : o->init ? "--initcheck" : o->trace ? "--trace" : o->strict_memory ? "--strict-memory"
                        : o->strict_fidelity ? "--strict-fidelity" : NULL;
  bool dump_forces_emu = emu_opt && want == RT_AUTO;
  bool budget_forces_emu = o->budget && want == RT_AUTO; /* a budget only exists on the emulator */
  if (emu_opt && want == RT_HIP) {
    ll_seterr(&R->err, LL_EXIT_USAGE, "%s needs the emulator: use --backend emu or auto", emu_opt);
    return false;
  }
  if (o->trace) {
    if (!o->trace_out) o->trace_out = "trace";
    struct stat st;
    if (stat(o->trace_out, &st) == 0 && !S_ISDIR(st.st_mode)) {
      ll_seterr(&R->err, LL_EXIT_USAGE, "--trace-out %s: exists and is not a directory", o->trace_out);
      return false;
    }
  }
  if (!(R->dev = rt_open(dump_forces_emu || budget_forces_emu ? RT_EMU : want, R->arch, &R->err))) return false;
  if (!cli_quiet) { /* -q silences this line too */
    if (dump_forces_emu) fprintf(stderr, "lanelab: backend emu (auto: %s needs the emulator)\n", emu_opt);
    else if (budget_forces_emu) fprintf(stderr, "lanelab: backend emu (auto: --budget is the emulator's)\n");
    else fprintf(stderr, "lanelab: %s\n", rt_device_note(R->dev));
  }
  return (R->mod = rt_load(R->dev, R->bytes, R->nbytes, o->co_path, &R->err)) != NULL;
}

/* Every buffer on the device, and the arguments (or the --kernarg bytes) pointing at them. */
static bool place_args(run_state *R) {
  run_opts *o = &R->o;
  R->args = ll_xcalloc(o->nspecs + 1, sizeof *R->args);
  for (size_t i = 0; i < o->nspecs; i++) {
    rt_argspec *s = &o->specs[i];
    R->args[i] = s->value;
    if (s->value.kind != RT_ARG_PTR) continue;
    if (!(R->bufs[i].addr = rt_alloc(R->dev, R->bufs[i].size, s->text, &R->err)) ||
        !rt_copy_to_device(R->dev, R->bufs[i].addr, R->bufs[i].host, R->bufs[i].size, &R->err))
      return false;
    R->args[i].ptr = R->bufs[i].addr;
  }
  if (!R->raw) return true;
  uint64_t *addrs = ll_xcalloc(o->nspecs + 1, sizeof *addrs);
  for (size_t i = 0; i < o->nspecs; i++) addrs[i] = R->bufs[i].addr;
  bool ok = rt_kernarg_patch(R->raw, R->nraw, o->bufs, o->nbufs, addrs, &R->err); /* checked above: cannot fail */
  free(addrs);
  return ok;
}

/* The register dump (at s_endpgm, or --dump-at PC[:N]) and the observers the options ask for. */
static bool launch_hooks(run_state *R, rt_launch_opts *lo) {
  run_opts *o = &R->o;
  if (o->dump) {
    R->dump = rt_regdump_new();
    if (o->dump_at) {
      uint32_t nw = (o->block[0] * o->block[1] * o->block[2] + 63) / 64;
      uint64_t slots = (uint64_t)o->grid[0] * o->grid[1] * o->grid[2] * nw;
      if (slots > (64u << 20)) {
        ll_seterr(&R->err, LL_EXIT_USAGE, "--dump-at: %llu waves are too many to count executions for (limit 64 M)",
                  (unsigned long long)slots);
        return false;
      }
      R->dump_at = (dump_at_ctx){R->dump, o->dump_at_n, o->grid[0], o->grid[1], nw, ll_xcalloc(slots, sizeof(uint64_t)), 0};
      lo->snap_pc = o->dump_at;
      lo->on_snap = dump_at_cb;
      lo->user = &R->dump_at;
    } else {
      lo->on_wave_end = rt_regdump_cb;
      lo->user = R->dump;
    }
  }
  if (o->race || o->init || o->trace) {
    R->obs = emu_observer_new();
    if (o->race) emu_observer_racecheck(R->obs, o->race_global);
    if (o->init) {
      emu_observer_initcheck(R->obs);
      for (size_t i = 0; i < o->nspecs; i++)
        if (o->specs[i].kind == RT_SPEC_OUT) emu_observer_uninit(R->obs, R->bufs[i].addr, R->bufs[i].size);
    }
    if (o->trace && !emu_observer_trace(R->obs, o->trace, 0, &R->err)) return false;
    lo->observe = R->obs;
  }
  return true;
}

/* The fidelity line (docs/fidelity.md), faulted runs included; with --strict-fidelity a run that
 * rested on a stated choice fails (LL_EXIT_FAIL, no output files). Returns the run's verdict. */
static int fidelity_line(run_state *R, const emu_launch_stats *st, int rc) {
  emu_fidelity fid = {0};
  emu_fidelity_add(&fid, st, R->kname);
  char line[1024];
  emu_fidelity_format(&fid, line, sizeof line);
  fprintf(stderr, "lanelab: %s\n", line);
  if (rc != LL_EXIT_OK || !R->o.strict_fidelity) return rc;
  char *names = ll_xmalloc(8192);
  if (emu_fidelity_strict(&fid, names, 8192)) {
    ll_seterr(&R->err, LL_EXIT_FAIL, "--strict-fidelity: %llu executed instruction%s rested on stated choices "
              "(docs/emulator-choices.md):\n%s", (unsigned long long)fid.choice_insns,
              fid.choice_insns == 1 ? "" : "s", names);
    rc = LL_EXIT_FAIL;
  }
  free(names);
  return rc;
}

static int launch(run_state *R) {
  run_opts *o = &R->o;
  rt_launch_opts lo = {0};
  emu_fault fault = {0};
  lo.fault = &fault;
  lo.insn_budget = o->budget;
  lo.kernarg = R->raw;
  lo.kernarg_size = R->nraw;
  lo.sched = o->sched;
  lo.sched_seed = o->sched_seed;
  lo.strict_memory = o->strict_memory;
  lo.on_warning = warn_cb;
  lo.warn_user = &R->nwarn;
  if (!launch_hooks(R, &lo)) return R->err.code;
  emu_launch_stats st = {0};
  bool on_emu = rt_device_backend(R->dev) == RT_EMU;
  if (on_emu) lo.stats = &st;
  int rc = rt_launch(R->dev, R->mod, R->kname, o->grid, o->block, R->raw ? NULL : R->args, R->raw ? 0 : o->nspecs, o->lds,
                     &lo, &R->err);
  if (on_emu) {
    rc = fidelity_line(R, &st, rc);
    emu_launch_stats_free(&st);
  } else {
    fprintf(stderr, "lanelab: fidelity: not applicable (backend hip: the GPU ran it)\n");
  }
  if (R->nwarn) /* the run summary of memory-model warnings (each printed once above) */
    fprintf(stderr, "lanelab: %zu memory-model warning%s (kernel PCs relying on undocumented hardware behaviour; "
            "--strict-memory makes them faults)\n", R->nwarn, R->nwarn == 1 ? "" : "s");
  if (rc != LL_EXIT_OK) return rc; /* a fault's message is in err (and fault.msg) */
  if (o->dump_at && rt_regdump_count(R->dump) == 0) {
    ll_seterr(&R->err, LL_EXIT_FAIL, "--dump-at 0x%llx:%llu: no wave executed the instruction at that PC %llu time%s "
              "(is it the address of an instruction the kernel reaches? see `lanelab isa census`)",
              (unsigned long long)o->dump_at, (unsigned long long)o->dump_at_n, (unsigned long long)o->dump_at_n,
              o->dump_at_n == 1 ? "" : "s");
    return LL_EXIT_FAIL;
  }
  return LL_EXIT_OK;
}

/* Success: results back, then every output file atomically. */
static bool write_outputs(run_state *R) {
  run_opts *o = &R->o;
  for (size_t i = 0; i < o->nspecs; i++)
    if (o->specs[i].outfile && !rt_copy_from_device(R->dev, R->bufs[i].host, R->bufs[i].addr, R->bufs[i].size, &R->err))
      return false;
  for (size_t i = 0; i < o->nspecs; i++)
    if (o->specs[i].outfile && !ll_out_write(&R->outs[i], R->bufs[i].host, R->bufs[i].size, &R->err)) return false;
  if (!R->dump) return true;
  ll_buf b = {0};
  rt_regdump_json(R->dump, &b, R->arch, R->kname, o->grid, o->block);
  bool ok = ll_out_write(&R->dumpout, b.data, b.len, &R->err);
  ll_buf_free(&b);
  if (ok && !cli_quiet) fprintf(stderr, "lanelab: wrote %zu waves' registers to %s\n", rt_regdump_count(R->dump), o->dump);
  return ok;
}

/* What the observers found (one line each, then the counts) and the trace files. Returns the
 * verdict: LL_EXIT_FAIL on a finding or a traced MFMA that differs from --expect-a/b; -1 with err. */
static int observer_results(run_state *R) {
  run_opts *o = &R->o;
  size_t nh = emu_observer_nhazards(R->obs);
  for (size_t i = 0; i < nh; i++) {
    char line[1024];
    emu_hazard_format(emu_observer_hazard(R->obs, i), line, sizeof line);
    printf("%s: %s\n", emu_observer_hazard(R->obs, i)->kind == EMU_HZ_UNINIT ? "initcheck" : "racecheck", line);
  }
  if (emu_observer_hazards_dropped(R->obs))
    printf("hazards: %llu byte conflicts in reports past the %zu kept (not listed)\n",
           (unsigned long long)emu_observer_hazards_dropped(R->obs), nh);
  size_t nrace = 0, nuninit = 0;
  for (size_t i = 0; i < nh; i++) *(emu_observer_hazard(R->obs, i)->kind == EMU_HZ_UNINIT ? &nuninit : &nrace) += 1;
  if (o->race) printf("racecheck: %zu hazard%s\n", nrace, nrace == 1 ? "" : "s");
  if (o->init) printf("initcheck: %zu uninitialized read%s\n", nuninit, nuninit == 1 ? "" : "s");
  int rc = nh ? LL_EXIT_FAIL : LL_EXIT_OK;
  if (!o->trace) return rc;
  for (size_t t = 0; t < o->ntiles; t++) { /* base=argK: the buffer's device address */
    int ka = o->tiles[t].base_arg;
    if (ka < 0) continue;
    if ((size_t)ka >= o->nspecs || !R->bufs[ka].addr) {
      ll_seterr(&R->err, LL_EXIT_USAGE, "--tile %s: base=arg%d is not a buffer argument", o->tiles[t].name, ka);
      return -1;
    }
    o->tiles[t].base += R->bufs[ka].addr;
    o->tiles[t].base_arg = -1;
  }
  report_trace_info tinfo = {.arch = emu_arch_name(R->arch), .kernel = o->kernel, .co_path = o->co_path,
                             .spec = o->trace, .tiles = o->tiles, .ntiles = o->ntiles, .expect_a = o->expect_a,
                             .expect_b = o->expect_b, .on_expect = expect_cb, .user = &R->expect_fail};
  if (!report_trace_write(o->trace_out, R->obs, &tinfo, &R->err)) return -1;
  if (!cli_quiet)
    fprintf(stderr, "lanelab: traced %zu instruction instances%s into %s/ (trace.json, trace.csv, trace.html)\n",
            emu_observer_ntrace(R->obs), emu_observer_trace_truncated(R->obs) ? " (truncated: use first=N)" : "",
            o->trace_out);
  return R->expect_fail || nh ? LL_EXIT_FAIL : LL_EXIT_OK;
}

static void run_free(run_state *R) {
  run_opts *o = &R->o;
  for (size_t i = 0; R->bufs && i < o->nspecs; i++) {
    if (R->bufs[i].addr) rt_free(R->dev, R->bufs[i].addr);
    free(R->bufs[i].host);
  }
  free(R->bufs);
  for (size_t i = 0; R->outs && i < o->nspecs; i++) ll_out_free(&R->outs[i]);
  free(R->outs);
  ll_out_free(&R->dumpout);
  free(R->args);
  rt_regdump_free(R->dump);
  free(R->dump_at.count);
  emu_observer_free(R->obs);
  rt_unload(R->mod);
  rt_close(R->dev);
  free(R->bytes);
  free(R->kname);
  free(R->raw);
  for (size_t i = 0; i < o->nbufs; i++) rt_bufspec_free(&o->bufs[i]);
  free(o->bufs);
  for (size_t i = 0; i < o->nspecs; i++) rt_argspec_free(&o->specs[i]);
  free(o->specs);
  free(o->tiles);
}

int cmd_run(int argc, char **argv) {
  run_state R = {.opt = "--arg"};
  int rc = parse(argc, argv, &R.o, &R.err);
  if (rc < 0) rc = 0; /* --help */
  else if (rc || !load_kernel(&R) || !read_inputs(&R) || !open_device(&R) || !place_args(&R) ||
           launch(&R) != LL_EXIT_OK || !write_outputs(&R))
    rc = ll_report(&R.err);
  else if (R.obs && (rc = observer_results(&R)) < 0)
    rc = ll_report(&R.err);
  run_free(&R);
  return rc;
}
