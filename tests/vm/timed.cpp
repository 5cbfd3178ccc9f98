// nb_vm_timed: runs a command and prints "elapsed_ms=<ms> status=<exit status>" on stderr after
// it ends. Busybox's date and time have no sub-second clock, and the guest's throughput figures
// need milliseconds.

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: nb_vm_timed COMMAND [ARGS...]\n");
    return 2;
  }
  auto start = std::chrono::steady_clock::now();
  pid_t child = fork();
  if (child < 0) {
    std::perror("nb_vm_timed: fork");
    return 127;
  }
  if (child == 0) {
    execvp(argv[1], argv + 1);
    std::perror("nb_vm_timed: exec");
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) {
      std::perror("nb_vm_timed: waitpid");
      return 127;
    }
  }
  auto elapsed =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::fprintf(stderr, "elapsed_ms=%.1f status=%d\n", elapsed.count(), code);
  return code;
}
