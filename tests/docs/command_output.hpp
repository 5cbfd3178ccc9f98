#pragma once
// Runs a shell command line the way an operator's terminal would, for tests that check the
// installed artefacts (man pages, completion) with the real tools: groff, bash and the binaries.

#include <string>
#include <string_view>
#include <vector>

namespace nb::testing {

struct CommandOutput {
  int exit_code = -1;  // -1 when the command could not run or was killed by a signal
  std::string output;  // stdout and stderr together, in order
};

CommandOutput run_command(const std::string& command_line);

// `text` as one word for /bin/sh, whatever it contains.
std::string shell_quote(std::string_view text);

std::vector<std::string> split_lines(std::string_view text);

}  // namespace nb::testing
