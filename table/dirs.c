/* table/dirs — output directories built aside and swapped in whole (reports/ writes each arch's
 * report and the MFMA layout pages this way), and the PATH lookup of a helper program. */
#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "table/table.h"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *f) {
  (void)st; (void)f;
  return (flag == FTW_DP ? rmdir(p) : unlink(p)) == 0 || errno == ENOENT ? 0 : -1;
}

bool report_rm_rf(const char *path) {
  struct stat st;
  if (lstat(path, &st) != 0) return errno == ENOENT;
  if (!S_ISDIR(st.st_mode)) return unlink(path) == 0;
  return nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0;
}

/* Temp/old directories left by a report writer that died (its pid no longer exists) are removed;
 * a live writer's are left alone. */
void report_sweep_dead(const char *reports, const char *arch) {
  DIR *d = opendir(reports);
  if (!d) return;
  struct dirent *e;
  char *p1 = ll_fmt(".%s.tmp-", arch), *p2 = ll_fmt(".%s.old-", arch);
  while ((e = readdir(d))) {
    const char *rest = !strncmp(e->d_name, p1, strlen(p1)) ? e->d_name + strlen(p1)
                       : !strncmp(e->d_name, p2, strlen(p2)) ? e->d_name + strlen(p2) : NULL;
    int64_t pid;
    if (!rest || !ll_parse_i64(rest, &pid) || pid <= 0 || pid == (int64_t)getpid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
    char *path = ll_fmt("%s/%s", reports, e->d_name);
    report_rm_rf(path);
    free(path);
  }
  closedir(d);
  free(p1);
  free(p2);
}

bool report_start_dir(const char *reports, const char *name, const char *final, const char *tmp, ll_err *err) {
  struct stat st;
  /* the swap replaces `final` whole: only ever one of our own report directories, never a file,
   * device, FIFO or a symlink someone put there (docs/architecture.md, "Files") */
  if (lstat(final, &st) == 0 && !S_ISDIR(st.st_mode)) {
    ll_seterr(err, LL_EXIT_USAGE, "report: %s exists and is not a directory; lanelab replaces only its own report "
              "directories", final);
    return false;
  }
  report_sweep_dead(reports, name);
  if (mkdir(tmp, 0777) != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "report: cannot create the temporary report directory %s: %s", tmp, strerror(errno));
    return false;
  }
  return true;
}

/* Swaps a finished temporary report directory in: the old one (if any) renamed aside to `old`,
 * `tmp` renamed to `final`, the old one removed; on failure the old one is put back. */
bool report_swap_in(const char *tmp, const char *final, const char *old, ll_err *err) {
  struct stat st;
  bool had_old = stat(final, &st) == 0;
  if (had_old && rename(final, old) != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "report: cannot move the previous report %s aside: %s", final, strerror(errno));
    return false;
  }
  if (rename(tmp, final) != 0) {
    ll_seterr(err, LL_EXIT_FAIL, "report: cannot move %s to %s: %s", tmp, final, strerror(errno));
    if (had_old) rename(old, final);
    return false;
  }
  if (had_old && !report_rm_rf(old)) fprintf(stderr, "lanelab: warning: could not remove the previous report %s\n", old);
  return true;
}

bool report_on_path(const char *prog) {
  const char *path = getenv("PATH");
  if (!path || !*path) return false;
  char *p = ll_xstrdup(path), *save = NULL;
  bool found = false;
  for (char *d = strtok_r(p, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
    char *f = ll_fmt("%s/%s", *d ? d : ".", prog);
    found = access(f, X_OK) == 0;
    free(f);
  }
  free(p);
  return found;
}

