/* peak_rss OUT PROGRAM [ARG...]: runs PROGRAM and writes its peak resident
 * set (KiB) to the file OUT; exits as PROGRAM did.
 *
 * Why a program of its own: a process's ru_maxrss starts at the resident
 * size of the process it was forked from (Linux carries the old address
 * space's high-water mark across exec, for fork and vfork alike). A test
 * that builds a 50 MiB input in memory and forks a tool measured the tool
 * at 50 MiB more than it used. This small process is exec'd first and
 * forks the tool itself, so the tool starts from this one's few hundred
 * KiB. If this process is killed (a test's time limit), so is the tool. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: peak_rss OUT PROGRAM [ARG...]\n");
    return 125;
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid < 0) return 126;
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(126); /* killed before the prctl held */
    execv(argv[2], argv + 2);
    _exit(127);
  }
  int status = 0;
  struct rusage usage = {0};
  while (wait4(pid, &status, 0, &usage) < 0) {
    if (errno != EINTR) return 126;
  }
  FILE* out = fopen(argv[1], "w");
  if (out) {
    fprintf(out, "%ld\n", usage.ru_maxrss);
    fclose(out);
  }
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    raise(WTERMSIG(status));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 126;
}
