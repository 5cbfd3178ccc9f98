#include <iostream>

#include "daemon/cli/commands.hpp"

namespace nb::cli {

int run_daemon(const GlobalOptions&) {
  std::cerr << "numabalancerd: the daemon loop is not available in this build\n";
  return 2;
}

}  // namespace nb::cli
