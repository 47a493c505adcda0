/* cli/cmd_exec — `lanelab exec [--arch A] [--racecheck[=global]] [--initcheck] [--leakcheck] [--schedule S]
 * [--strict-memory] [--strict-fidelity] [--trace SPEC] [--report DIR] -- PROGRAM [ARGS...]` (README.md "Command
 * line"; docs/hip-runtime.md). Runs a program built with `lanelab hipcc` with lanelab's checks on
 * every launch: the options become the environment of the exec protocol (hip/hip.h), the program
 * runs with its own stdin/stdout/stderr, and after it exits the summary its runtime wrote is
 * printed as one line on stderr, followed by the fidelity line (docs/fidelity.md: how many of the
 * executed instructions of all launches rested on stated choices, and which).
 *
 * Exit status: 0 when the program exited 0 and no launch faulted and no check found anything;
 * 1 when the program exited non-zero or was killed, a launch faulted, or racecheck / initcheck /
 * leakcheck found something, or --strict-fidelity and an executed instruction rested on a stated choice; 2 bad usage, a program that cannot be started, or one that never reached
 * lanelab's HIP runtime (not built with lanelab hipcc, or no HIP call: the checks did not run);
 * 3 the environment lacks something. SIGTERM, SIGHUP or SIGQUIT sent to lanelab exec (a CI job's
 * timeout, a closed terminal) goes on to the program; when it has ended, lanelab exec prints what
 * its runtime recorded, removes its temporary folder and ends by the same signal. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "emu/emu.h"
#include "isa/isa.h"
#include "hip/hip.h"
#include "util/util.h"

static const char *usage = "usage: lanelab exec [--arch A] [--racecheck[=global]] [--initcheck] [--leakcheck] [--heapcheck] [--schedule S] "
                           "[--budget N] [--strict-memory] [--strict-fidelity] [--trace SPEC] [--report DIR] -- PROGRAM [ARGS...]";

static int usage_err(const char *fmt, const char *a) {
  fprintf(stderr, "lanelab: exec: ");
  fprintf(stderr, fmt, a);
  fprintf(stderr, "\n%s\n", usage);
  return LL_EXIT_USAGE;
}

typedef struct exec_opts {
  const char *arch, *race, *schedule, *trace, *report, *budget;
  bool init, leak, heap, strict, strict_fidelity;
  char **prog; /* PROGRAM ARGS..., NULL-terminated (argv's tail) */
} exec_opts;

static int parse(int argc, char **argv, exec_opts *o) {
  int i = 1;
  for (; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--")) {
      i++;
      break;
    }
    if (a[0] != '-') break; /* PROGRAM without a "--" before it */
    const char **val = !strcmp(a, "--arch") ? &o->arch : !strcmp(a, "--schedule") ? &o->schedule
                       : !strcmp(a, "--budget") ? &o->budget : !strcmp(a, "--trace") ? &o->trace : !strcmp(a, "--report") ? &o->report : NULL;
    if (val) {
      if (i + 1 >= argc) return usage_err("%s needs a value", a);
      *val = argv[++i];
    } else if (!strncmp(a, "--arch=", 7)) o->arch = a + 7;
    else if (!strncmp(a, "--schedule=", 11)) o->schedule = a + 11;
    else if (!strncmp(a, "--budget=", 9)) o->budget = a + 9;
    else if (!strncmp(a, "--trace=", 8)) o->trace = a + 8;
    else if (!strncmp(a, "--report=", 9)) o->report = a + 9;
    else if (!strcmp(a, "--racecheck")) o->race = "lds";
    else if (!strcmp(a, "--racecheck=global")) o->race = "global";
    else if (!strncmp(a, "--racecheck=", 12)) return usage_err("--racecheck=%s: only --racecheck (LDS) and --racecheck=global exist", a + 12);
    else if (!strcmp(a, "--initcheck")) o->init = true;
    else if (!strcmp(a, "--leakcheck")) o->leak = true;
    else if (!strcmp(a, "--heapcheck")) o->heap = true;
    else if (!strcmp(a, "--strict-memory")) o->strict = true;
    else if (!strcmp(a, "--strict-fidelity")) o->strict_fidelity = true;
    else if (!strcmp(a, "-h") || !strcmp(a, "--help")) return printf("%s\n", usage), -1;
    else return usage_err("unknown option '%s' (the program and its arguments go after --)", a);
  }
  if (i >= argc) return usage_err("%s", "no program given (lanelab exec [OPTIONS] -- PROGRAM [ARGS...])");
  o->prog = argv + i;
  emu_arch arch;
  if (o->arch && !emu_arch_parse(o->arch, &arch)) return usage_err("unknown arch '%s': expected gfx942 or gfx950", o->arch);
  if (o->schedule) {
    uint64_t seed;
    bool ok = !strcmp(o->schedule, "roundrobin") || !strcmp(o->schedule, "adversarial") ||
              (!strncmp(o->schedule, "random:", 7) && ll_parse_u64(o->schedule + 7, &seed));
    if (!ok) return usage_err("--schedule %s: expected roundrobin, adversarial or random:SEED", o->schedule);
  }
  if (o->budget) {
    uint64_t n;
    if (!ll_parse_u64(o->budget, &n) || n == 0) return usage_err("--budget %s: expected a positive number of instructions per wave", o->budget);
  }
  if (o->trace) {
    emu_observer *ob = emu_observer_new();
    ll_err e = {0};
    bool ok = emu_observer_trace(ob, o->trace, 0, &e);
    emu_observer_free(ob);
    if (!ok) return usage_err("--trace: %s", e.msg);
  }
  if (o->report) {
    struct stat st;
    if (stat(o->report, &st) == 0 && !S_ISDIR(st.st_mode)) return usage_err("--report %s: exists and is not a directory", o->report);
    ll_err e = {0};
    if (!ll_mkdir_p(o->report, &e)) return usage_err("--report: %s", e.msg);
  }
  return 0;
}

static void set_env(const char *k, const char *v) {
  if (v) setenv(k, v, 1);
  else unsetenv(k);
}

/* "3 launches of 2 kernels" and, per check, its count or "not run". */
static void print_summary(const char *prog, const hip_summary *s, const exec_opts *o, const char *how) {
  fprintf(stderr, "lanelab exec: %s on %s: %s; %llu launch%s of %zu kernel%s; faults %llu; racecheck %s; "
          "initcheck %s; leakcheck %s; heapcheck %s; memory-model warnings %llu; HIP API errors %llu\n",
          prog, s->arch, how, (unsigned long long)s->launches, s->launches == 1 ? "" : "es", s->nkernels,
          s->nkernels == 1 ? "" : "s", (unsigned long long)s->faults,
          o->race ? (s->races ? "FOUND" : "0") : "not run", o->init ? (s->uninit ? "FOUND" : "0") : "not run",
          o->leak ? (s->leaks ? "FOUND" : "0") : "not run", o->heap ? (s->heap_bad ? "FOUND" : "0") : "not run",
          (unsigned long long)s->mem_warnings,
          (unsigned long long)s->api_errors);
  if (o->race && s->races) fprintf(stderr, "lanelab exec: racecheck: %llu hazard%s (above)\n", (unsigned long long)s->races, s->races == 1 ? "" : "s");
  if (o->init && s->uninit) fprintf(stderr, "lanelab exec: initcheck: %llu uninitialized read%s (above)\n", (unsigned long long)s->uninit, s->uninit == 1 ? "" : "s");
  if (o->heap && s->heap_bad)
    fprintf(stderr, "lanelab exec: heapcheck: %llu access%s to the device heap outside every live block (above)\n",
            (unsigned long long)s->heap_bad, s->heap_bad == 1 ? "" : "es");
  if (o->leak && s->leaks)
    fprintf(stderr, "lanelab exec: leakcheck: %llu allocation%s (%llu bytes) not freed at exit (above)\n",
            (unsigned long long)s->leaks, s->leaks == 1 ? "" : "s", (unsigned long long)s->leak_bytes);
  fprintf(stderr, "lanelab exec: %s\n", s->fidelity);
  size_t n = strlen(s->fidelity_choices);
  if (o->strict_fidelity && s->choice_insns)
    fprintf(stderr, "lanelab exec: --strict-fidelity: %llu executed instruction%s rested on stated choices "
            "(docs/emulator-choices.md):\n%s%s", (unsigned long long)s->choice_insns, s->choice_insns == 1 ? "" : "s",
            s->fidelity_choices, n && s->fidelity_choices[n - 1] != '\n' ? "\n" : "");
}

/* the program's pid once started, and the last ending signal that reached lanelab exec */
static volatile sig_atomic_t fwd_pid, fwd_sig;
static void forward(int sig)
{
  fwd_sig = sig;
  if (fwd_pid > 0) kill((pid_t)fwd_pid, sig);
}
static const int forwarded[] = {SIGTERM, SIGHUP, SIGQUIT};

int cmd_exec(int argc, char **argv) {
  exec_opts o = {0};
  int rc = parse(argc, argv, &o);
  if (rc) return rc < 0 ? LL_EXIT_OK : rc;
  char dir[] = "/tmp/lanelab-exec-XXXXXX";
  if (!mkdtemp(dir)) {
    fprintf(stderr, "lanelab: exec: cannot create a temporary folder in /tmp: %s\n", strerror(errno));
    return LL_EXIT_ENV;
  }
  char *summary = ll_fmt("%s/summary.json", dir);
  set_env("LANELAB_ARCH", o.arch);
  set_env("LANELAB_RACECHECK", o.race);
  set_env("LANELAB_INITCHECK", o.init ? "1" : NULL);
  set_env("LANELAB_HEAPCHECK", o.heap ? "1" : NULL);
  set_env("LANELAB_LEAKCHECK", o.leak ? "1" : NULL);
  set_env("LANELAB_SCHEDULE", o.schedule);
  set_env("LANELAB_BUDGET", o.budget);
  set_env("LANELAB_STRICT_MEMORY", o.strict ? "1" : NULL);
  set_env("LANELAB_TRACE", o.trace);
  set_env("LANELAB_REPORT", o.report);
  set_env("LANELAB_EXEC_SUMMARY", summary);
  /* the program's runtime compilation (hiprtc) uses this lanelab's HIP headers; found here or
   * not, the program's own compile says what it misses */
  const char *inc = getenv("LANELAB_HIP_INCLUDE");
  if (!inc || !*inc) {
    ll_err e = {0};
    char *d = isa_hip_subset_dir(&e);
    if (d) set_env("LANELAB_HIP_INCLUDE", d);
    free(d);
  }
  fflush(NULL);
  /* before the fork, so that no such signal ends lanelab exec and leaves the program running;
   * the program starts with the default actions (execvp resets caught signals) */
  struct sigaction sa, old_sa[sizeof forwarded / sizeof *forwarded];
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  fwd_pid = 0, fwd_sig = 0;
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) sigaction(forwarded[i], &sa, &old_sa[i]);
  pid_t pid = fork();
  if (pid < 0) {
    fprintf(stderr, "lanelab: exec: fork: %s\n", strerror(errno));
    rc = LL_EXIT_ENV;
    goto out;
  }
  if (pid == 0) {
    execvp(o.prog[0], o.prog);
    fprintf(stderr, "lanelab: exec: cannot run %s: %s\n", o.prog[0], strerror(errno));
    _exit(127);
  }
  /* lanelab exec waits; a Ctrl-C reaches the program (same process group) and ends it */
  fwd_pid = pid;
  if (fwd_sig) kill(pid, fwd_sig); /* one that came between the fork and here */
  signal(SIGINT, SIG_IGN);
  int st;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
  signal(SIGINT, SIG_DFL);
  char how[256];
  bool prog_ok = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (WIFEXITED(st)) snprintf(how, sizeof how, "exit %d", WEXITSTATUS(st));
  else snprintf(how, sizeof how, "killed by signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
  if (WIFEXITED(st) && WEXITSTATUS(st) == 127 && access(summary, F_OK) != 0) {
    rc = LL_EXIT_USAGE; /* execvp failed; the child said why */
    goto out;
  }
  hip_summary s;
  ll_err e = {0};
  if (access(summary, F_OK) != 0) {
    fprintf(stderr, "lanelab exec: %s (%s) never reached lanelab's HIP runtime: it was not built with lanelab hipcc, "
            "or it made no HIP call; no check ran\n", o.prog[0], how);
    rc = LL_EXIT_USAGE;
    goto out;
  }
  if (!hip_summary_read(summary, &s, &e)) {
    fprintf(stderr, "lanelab exec: the runtime's summary is unreadable: %s\n", e.msg);
    rc = LL_EXIT_FAIL;
    goto out;
  }
  if (!s.complete) {
    char tmp[256];
    snprintf(tmp, sizeof tmp, "%s before the runtime's exit handler ran (the counts are as of its last finding)", how);
    snprintf(how, sizeof how, "%s", tmp);
  }
  print_summary(o.prog[0], &s, &o, how);
  if (o.report) {
    char *copy = ll_fmt("%s/exec-summary.json", o.report);
    size_t n;
    void *b = ll_read_file(summary, &n, &e);
    if (!b || !ll_write_file_atomic(copy, b, n, &e)) fprintf(stderr, "lanelab: exec: --report: %s\n", e.msg);
    free(b);
    free(copy);
  }
  bool found = s.faults || (o.race && s.races) || (o.init && s.uninit) || (o.leak && s.leaks) || (o.heap && s.heap_bad) ||
               (o.strict_fidelity && s.choice_insns);
  rc = !prog_ok || found ? LL_EXIT_FAIL : LL_EXIT_OK;
  hip_summary_free(&s);
out:
  unlink(summary);
  rmdir(dir);
  free(summary);
  fwd_pid = 0;
  for (size_t i = 0; i < sizeof forwarded / sizeof *forwarded; i++) sigaction(forwarded[i], &old_sa[i], NULL);
  if (fwd_sig) { /* end as the signal would have ended lanelab exec */
    fflush(NULL);
    signal(fwd_sig, SIG_DFL);
    raise(fwd_sig);
  }
  return rc;
}
