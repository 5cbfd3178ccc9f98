#include "tests/vm/workload_options.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string_view>

namespace nb::vm {
namespace {

[[noreturn]] void usage(const char* message) {
  std::fprintf(stderr,
               "nb_vm_workload: %s\n"
               "usage: nb_vm_workload (--mib N | --fill-leaving-mib N) --node K\n"
               "                      [--policy bind|preferred] [--huge-pages default|on|off]\n"
               "                      [--seed S] [--hot-tail-mib N] [--tlb-flush on|off]\n",
               message);
  std::exit(2);
}

long parse_number(const char* text, const char* what) {
  char* end = nullptr;
  errno = 0;
  long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 0) {
    usage(what);
  }
  return value;
}

// The value when it is one of `choices`; otherwise the usage, with `what`.
std::string_view one_of(std::string_view value, std::initializer_list<std::string_view> choices,
                        const char* what) {
  if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
    usage(what);
  }
  return value;
}

}  // namespace

Options parse_options(int argc, char** argv) {
  Options options;
  bool have_size = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view flag = argv[i];
    if (i + 1 >= argc) {
      usage("every option takes a value");
    }
    const char* value = argv[++i];
    if (flag == "--mib") {
      options.mib = parse_number(value, "--mib needs a number of MiB");
      have_size = true;
    } else if (flag == "--fill-leaving-mib") {
      options.fill_leaving_mib = parse_number(value, "--fill-leaving-mib needs a number of MiB");
      have_size = true;
    } else if (flag == "--node") {
      options.node = static_cast<int>(parse_number(value, "--node needs a node id"));
    } else if (flag == "--huge-pages") {
      options.huge_pages =
          one_of(value, {"default", "on", "off"}, "--huge-pages takes default, on or off");
    } else if (flag == "--policy") {
      options.preferred =
          one_of(value, {"bind", "preferred"}, "--policy takes bind or preferred") == "preferred";
    } else if (flag == "--hot-tail-mib") {
      options.hot_tail_mib = parse_number(value, "--hot-tail-mib needs a number of MiB");
    } else if (flag == "--tlb-flush") {
      options.tlb_flush = one_of(value, {"on", "off"}, "--tlb-flush takes on or off") == "on";
    } else if (flag == "--seed") {
      options.seed = static_cast<std::uint64_t>(parse_number(value, "--seed needs a number"));
    } else {
      usage("unknown option");
    }
  }
  if (!have_size) {
    usage("--mib or --fill-leaving-mib is required");
  }
  return options;
}

}  // namespace nb::vm
