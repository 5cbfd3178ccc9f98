#include <iostream>

#include "daemon/cli/commands.hpp"

namespace nb::cli {

int run_check_config(const GlobalOptions&) {
  std::cerr << "numabalancerd --check-config: not available in this build\n";
  return 2;
}

}  // namespace nb::cli
