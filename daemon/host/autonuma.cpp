#include "daemon/host/autonuma.hpp"

#include <charconv>

#include "daemon/host/small_file.hpp"

namespace nb::host {

Result<int> read_numa_balancing(const std::filesystem::path& host_root) {
  auto path = host_root / "proc/sys/kernel/numa_balancing";
  auto text = read_small_file(path);
  if (!text) {
    return text.error();
  }
  std::string_view value = text.value();
  while (!value.empty() && (value.back() == '\n' || value.back() == ' ')) {
    value.remove_suffix(1);
  }
  int mode = 0;
  auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), mode);
  if (value.empty() || error != std::errc() || end != value.data() + value.size() || mode < 0) {
    return make_error(0, path.string() + ": \"" + std::string(value) + "\" is not a mode number");
  }
  return mode;
}

std::optional<std::string> numa_balancing_warning(const std::filesystem::path& host_root) {
  auto mode = read_numa_balancing(host_root);
  if (!mode) {
    if (mode.error().vanished()) {
      return std::nullopt;
    }
    return "cannot tell whether kernel NUMA balancing is on: " + mode.error().message();
  }
  if (mode.value() == 0) {
    return std::nullopt;
  }
  return "kernel.numa_balancing is " + std::to_string(mode.value()) +
         ": the kernel migrates pages by itself and may move them straight back after "
         "numabalancer moved them; consider `sysctl kernel.numa_balancing=0`";
}

}  // namespace nb::host
