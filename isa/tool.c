/* isa/tool — running the external tools the guards rely on (llvm-objdump, llvm-mc, git, make).
 * posix_spawn with pipes; stdout and stderr are drained together with poll() so neither pipe can
 * fill and stall the child. No shell is involved: arguments (an assembly line, a revision) reach
 * the tool as they are. */
#define _GNU_SOURCE
#include "isa/isa.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

char *isa_llvm_tool(const char *name, ll_err *err) {
  const char *dir = getenv("LANELAB_LLVM_BIN");
  if (!dir || !dir[0]) dir = "/usr/lib/llvm-22/bin";
  char *p = ll_fmt("%s/%s", dir, name);
  if (access(p, X_OK) != 0) {
    ll_seterr(err, LL_EXIT_ENV,
              "%s not found (looked for %s); install Debian's llvm-22 (apt-get install -y llvm-22)%s", name, p,
              getenv("LANELAB_LLVM_BIN") ? " or fix LANELAB_LLVM_BIN" : "");
    free(p);
    return NULL;
  }
  return p;
}

static void drain(int fd, ll_buf *b, bool *open_) {
  char tmp[65536];
  ssize_t r = read(fd, tmp, sizeof tmp);
  if (r > 0) {
    if (b) ll_buf_put(b, tmp, (size_t)r);
  } else if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
    *open_ = false;
  }
}

int isa_run(char *const argv[], const char *cwd, const char *stdin_text, ll_buf *out, ll_buf *errout,
            ll_err *err) {
  int pin[2] = {-1, -1}, pout[2] = {-1, -1}, perr[2] = {-1, -1};
  if (pipe(pin) || pipe(pout) || pipe(perr)) {
    ll_seterr(err, LL_EXIT_ENV, "cannot create pipes to run %s: %s", argv[0], strerror(errno));
    for (int i = 0; i < 2; i++) {
      if (pin[i] >= 0) close(pin[i]);
      if (pout[i] >= 0) close(pout[i]);
      if (perr[i] >= 0) close(perr[i]);
    }
    return -1;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pin[0], 0);
  posix_spawn_file_actions_adddup2(&fa, pout[1], 1);
  posix_spawn_file_actions_adddup2(&fa, perr[1], 2);
  int fds[6] = {pin[0], pin[1], pout[0], pout[1], perr[0], perr[1]};
  for (int i = 0; i < 6; i++) posix_spawn_file_actions_addclose(&fa, fds[i]);
  if (cwd) posix_spawn_file_actions_addchdir_np(&fa, cwd);
  pid_t pid;
  int rc = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)
                                : posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(pin[0]);
  close(pout[1]);
  close(perr[1]);
  if (rc != 0) {
    ll_seterr(err, LL_EXIT_ENV, "cannot run %s: %s", argv[0], strerror(rc));
    close(pin[1]);
    close(pout[0]);
    close(perr[0]);
    return -1;
  }
  /* stdin: written in full before reading; callers pass at most a line or two, far below the pipe
   * buffer, and a child that exits early must not kill us with SIGPIPE. */
  if (stdin_text) {
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    size_t len = strlen(stdin_text), off = 0;
    while (off < len) {
      ssize_t w = write(pin[1], stdin_text + off, len - off);
      if (w < 0 && errno == EINTR) continue;
      if (w <= 0) break;
      off += (size_t)w;
    }
    signal(SIGPIPE, old);
  }
  close(pin[1]);
  bool oo = true, eo = true;
  while (oo || eo) {
    struct pollfd p[2];
    int np = 0;
    if (oo) p[np++] = (struct pollfd){.fd = pout[0], .events = POLLIN};
    if (eo) p[np++] = (struct pollfd){.fd = perr[0], .events = POLLIN};
    if (poll(p, np, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < np; i++) {
      if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      if (p[i].fd == pout[0]) drain(pout[0], out, &oo);
      else drain(perr[0], errout, &eo);
    }
  }
  close(pout[0]);
  close(perr[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) {
      ll_seterr(err, LL_EXIT_ENV, "waiting for %s: %s", argv[0], strerror(errno));
      return -1;
    }
  if (out) ll_buf_str(out);
  if (errout) ll_buf_str(errout);
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
