#include "daemon/service/manual_migration_scope.hpp"

#include <cerrno>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>

#include "daemon/host/cgroup_glob.hpp"

namespace nb::service {
namespace {

constexpr const char* kRootOnly = " is outside the configured pools; only root may move it";

bool lists_memory(std::string_view controllers) {
  std::stringstream list{std::string(controllers)};
  for (std::string controller; std::getline(list, controller, ',');) {
    if (controller == "memory") {
      return true;
    }
  }
  return false;
}

}  // namespace

bool in_pools(const std::filesystem::path& relative, const std::vector<config::PoolConfig>& pools) {
  host::GlobSet globs;
  for (std::size_t i = 0; i < pools.size(); ++i) {
    for (const auto& glob : pools[i].cgroups) {
      globs.add(glob, i);
    }
  }
  std::filesystem::path prefix;
  for (const auto& part : relative) {
    prefix /= part;
    if (!globs.owners_matching(prefix.string()).empty()) {
      return true;
    }
  }
  return false;
}

Result<std::filesystem::path> memory_cgroup_of(int pid, const std::filesystem::path& proc_root) {
  auto file = proc_root / std::to_string(pid) / "cgroup";
  std::ifstream in(file);
  if (!in) {
    return make_error(errno != 0 ? errno : ENOENT, "read " + file.string());
  }
  std::optional<std::string> unified;
  for (std::string line; std::getline(in, line);) {
    // hierarchy-id:controllers:path; the path may itself hold ':'.
    auto first = line.find(':');
    auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) {
      continue;
    }
    std::string_view controllers(line.data() + first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    if (lists_memory(controllers)) {
      return std::filesystem::path(path).relative_path();
    }
    if (line.starts_with("0::")) {
      unified = path;
    }
  }
  if (!unified) {
    return make_error(0, file.string() + " names no memory cgroup");
  }
  return std::filesystem::path(*unified).relative_path();
}

Result<Ok, ManualMigrationError> check_cgroup_scope(const std::filesystem::path& relative,
                                                    const std::vector<config::PoolConfig>& pools,
                                                    bool caller_is_root) {
  if (caller_is_root || in_pools(relative, pools)) {
    return Ok{};
  }
  std::string name = relative.empty() ? "the root cgroup" : "cgroup " + relative.string();
  return ManualMigrationError{MigrationProblem::outside_pools, name + kRootOnly};
}

Result<Ok, ManualMigrationError> check_process_scope(int pid,
                                                     const std::vector<config::PoolConfig>& pools,
                                                     const std::filesystem::path& proc_root,
                                                     bool caller_is_root) {
  if (caller_is_root) {
    return Ok{};
  }
  std::string name = "process " + std::to_string(pid);
  auto cgroup = memory_cgroup_of(pid, proc_root);
  if (!cgroup) {
    return ManualMigrationError{
        MigrationProblem::outside_pools,
        name + "'s cgroup is unknown (" + cgroup.error().message() + "), so it" + kRootOnly};
  }
  if (in_pools(*cgroup, pools)) {
    return Ok{};
  }
  return ManualMigrationError{MigrationProblem::outside_pools,
                              name + " (cgroup /" + cgroup->string() + ")" + kRootOnly};
}

Result<host::ConfinedCgroup, ManualMigrationError> resolve_cgroup_in_scope(
    const std::filesystem::path& memory_root, const std::string& text,
    const std::vector<config::PoolConfig>& pools, bool caller_is_root) {
  auto cgroup = host::confine_cgroup(memory_root, text);
  if (!cgroup) {
    return ManualMigrationError{MigrationProblem::cgroup_refused, cgroup.error().message()};
  }
  if (auto scope = check_cgroup_scope(cgroup->relative, pools, caller_is_root); !scope) {
    return scope.error();
  }
  return std::move(cgroup.value());
}

}  // namespace nb::service
