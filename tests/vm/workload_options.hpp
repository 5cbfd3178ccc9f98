#pragma once
// nb_vm_workload's command line: how much memory, on which node, under which policy, and what
// its reader thread does. A bad option prints the usage and exits 2.

#include <cstdint>
#include <optional>
#include <string>

namespace nb::vm {

struct Options {
  long mib = 0;
  int node = 0;
  std::optional<long> fill_leaving_mib;  // a hog: take all free memory of the node but this
  std::string huge_pages = "default";    // default, on, off
  bool preferred = false;  // MPOL_PREFERRED: spill to other nodes instead of being OOM-killed
  std::uint64_t seed = 1;
  long hot_tail_mib = 0;  // a thread reads the last this many MiB over and over
  bool tlb_flush = true;  // the reader flushes its CPU's TLB after each sweep
};

Options parse_options(int argc, char** argv);

}  // namespace nb::vm
