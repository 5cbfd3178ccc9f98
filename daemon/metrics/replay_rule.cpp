#include "daemon/metrics/replay_rule.hpp"

#include <algorithm>
#include <iterator>
#include <system_error>

namespace nb::metrics {
namespace {

// Both made absolute and free of "..", so that "tree/../elsewhere" is not under "tree".
std::filesystem::path resolved(const std::filesystem::path& path) {
  std::error_code error;
  auto absolute = std::filesystem::weakly_canonical(path, error);
  return error ? path.lexically_normal() : absolute;
}

bool is_under(const std::filesystem::path& path, const std::filesystem::path& root) {
  const auto inner = resolved(path);
  const auto outer = resolved(root);
  auto outer_end = outer.end();
  // "/tree/" ends in an empty element that "/tree/file" does not have.
  if (outer_end != outer.begin() && std::prev(outer_end)->empty()) {
    --outer_end;
  }
  return std::distance(outer.begin(), outer_end) < std::distance(inner.begin(), inner.end()) &&
         std::mismatch(outer.begin(), outer_end, inner.begin()).first == outer_end;
}

}  // namespace

bool is_this_machine(const std::filesystem::path& host_root) {
  return host_root.lexically_normal() == "/";
}

std::optional<std::string> off_under_host_root(const ProviderEntry& entry,
                                               const config::MetricsConfig& config,
                                               const std::filesystem::path& host_root) {
  if (is_this_machine(host_root)) {
    return std::nullopt;
  }
  if (entry.measures_this_machine) {
    return "off under --host-root: it would measure this machine, not the tree";
  }
  if (entry.name == "file" && !is_under(config.file.path, host_root)) {
    return "off under --host-root: " + config.file.path + " is outside " + host_root.string() +
           ", so it does not describe the tree";
  }
  return std::nullopt;
}

}  // namespace nb::metrics
