#include "actuator/process_identity.hpp"

#include <cerrno>
#include <charconv>
#include <fstream>
#include <sstream>
#include <system_error>

namespace nb::actuator {
namespace {

bool is_cgroup(const std::filesystem::path& dir) {
  std::error_code error;
  return std::filesystem::exists(dir / "cgroup.procs", error);
}

// A /proc file of pid; ENOENT when the process (or the file) is gone.
Result<std::string> read_proc_file(const std::filesystem::path& proc_root, int pid,
                                   const char* name) {
  auto path = proc_root / std::to_string(pid) / name;
  std::ifstream in(path);
  if (!in) {
    return make_error(errno == 0 ? ENOENT : errno, "open " + path.string());
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

bool lists_memory(std::string_view controllers) {
  while (!controllers.empty()) {
    auto comma = controllers.find(',');
    if (controllers.substr(0, comma) == "memory") {
      return true;
    }
    if (comma == std::string_view::npos) {
      break;
    }
    controllers.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

Result<CgroupName> cgroup_name(const std::filesystem::path& cgroup_dir) {
  auto dir = cgroup_dir.lexically_normal();
  if (!dir.has_filename() && dir.has_parent_path()) {
    dir = dir.parent_path();
  }
  if (!is_cgroup(dir)) {
    return make_error(ENOENT, "cgroup " + cgroup_dir.string());
  }
  auto root = dir;
  while (root.has_parent_path() && root.parent_path() != root && is_cgroup(root.parent_path())) {
    root = root.parent_path();
  }
  std::error_code error;
  CgroupName name;
  // Only v2 cgroups have cgroup.controllers.
  name.v2 = std::filesystem::exists(dir / "cgroup.controllers", error);
  auto relative = dir.lexically_relative(root);
  name.path = relative == "." ? "/" : "/" + relative.generic_string();
  return name;
}

Result<std::uint64_t> process_start_time(const std::filesystem::path& proc_root, int pid) {
  auto text = read_proc_file(proc_root, pid, "stat");
  if (!text) {
    return text.error();
  }
  // The command name may hold spaces and parentheses: fields are counted after its last ')'.
  auto close = text->rfind(')');
  std::istringstream fields(close == std::string::npos ? std::string() : text->substr(close + 1));
  std::string field;
  for (int number = 3; number < 22 && fields >> field; ++number) {
  }
  std::uint64_t start = 0;
  if (!(fields >> field) ||
      std::from_chars(field.data(), field.data() + field.size(), start).ec != std::errc()) {
    return make_error(EINVAL,
                      "no start time in " + (proc_root / std::to_string(pid) / "stat").string());
  }
  return start;
}

Result<std::string> process_cgroup(const std::filesystem::path& proc_root, int pid, bool v2) {
  auto text = read_proc_file(proc_root, pid, "cgroup");
  if (!text) {
    return text.error();
  }
  // hierarchy-ID:controller-list:cgroup-path, one line per hierarchy.
  std::istringstream lines(*text);
  std::string line;
  while (std::getline(lines, line)) {
    auto first = line.find(':');
    auto second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) {
      continue;
    }
    std::string_view id(line.data(), first);
    std::string_view controllers(line.data() + first + 1, second - first - 1);
    bool wanted = v2 ? id == "0" && controllers.empty() : lists_memory(controllers);
    if (wanted) {
      return line.substr(second + 1);
    }
  }
  return make_error(ENODATA, std::string(v2 ? "no v2 line" : "no memory controller line") + " in " +
                                 (proc_root / std::to_string(pid) / "cgroup").string());
}

bool cgroup_within(std::string_view path, std::string_view ancestor) {
  if (ancestor == "/") {
    return path.starts_with('/');
  }
  return path.starts_with(ancestor) &&
         (path.size() == ancestor.size() || path[ancestor.size()] == '/');
}

Result<bool> process_in_cgroup(const std::filesystem::path& proc_root, int pid,
                               const CgroupName& cgroup) {
  auto path = process_cgroup(proc_root, pid, cgroup.v2);
  if (!path) {
    return path.error();
  }
  return cgroup_within(*path, cgroup.path);
}

}  // namespace nb::actuator
