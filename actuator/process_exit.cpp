#include "actuator/process_exit.hpp"

#include <cerrno>
#include <fstream>
#include <sstream>
#include <string>

namespace nb::actuator {

bool process_exited(const std::filesystem::path& proc_root, int pid, int error) {
  if (error == ESRCH) {
    return true;
  }
  std::ifstream stat(proc_root / std::to_string(pid) / "stat");
  std::string text;
  if (!stat || !std::getline(stat, text)) {
    return true;
  }
  auto close = text.rfind(')');
  if (close == std::string::npos) {
    return false;
  }
  // After the command name: state ppid pgrp session tty_nr tpgid flags ...
  std::istringstream fields(text.substr(close + 1));
  char state = 0;
  long skipped = 0;
  unsigned long flags = 0;
  fields >> state >> skipped >> skipped >> skipped >> skipped >> skipped >> flags;
  constexpr unsigned long kProcessExiting = 0x4;  // PF_EXITING
  return state == 'Z' || state == 'X' || (fields && (flags & kProcessExiting) != 0);
}

}  // namespace nb::actuator
