#include "tests/docs/command_output.hpp"

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <memory>

namespace nb::testing {

CommandOutput run_command(const std::string& command_line) {
  CommandOutput result;
  std::string merged = command_line + " 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(::popen(merged.c_str(), "r"), ::pclose);
  if (!pipe) {
    return result;
  }
  std::array<char, 4096> buffer{};
  while (std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe.get())) {
    result.output.append(buffer.data(), n);
  }
  int status = ::pclose(pipe.release());
  if (status != -1 && WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  }
  return result;
}

std::string shell_quote(std::string_view text) {
  std::string quoted = "'";
  for (char c : text) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  quoted += '\'';
  return quoted;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    std::size_t end = text.find('\n');
    lines.emplace_back(text.substr(0, end));
    if (end == std::string_view::npos) {
      break;
    }
    text.remove_prefix(end + 1);
  }
  return lines;
}

}  // namespace nb::testing
