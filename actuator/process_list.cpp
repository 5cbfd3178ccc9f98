#include "actuator/process_list.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <fstream>
#include <string>

namespace nb::actuator {
namespace {

// Appends the pids listed in `in`, one a line; a line that is not a positive pid fails the file.
Status parse_pids(std::istream& in, const std::filesystem::path& path, std::vector<int>& pids) {
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty()) {
      continue;
    }
    int pid = 0;
    auto [end, error] = std::from_chars(line.data(), line.data() + line.size(), pid);
    if (error != std::errc() || end != line.data() + line.size() || pid <= 0) {
      return make_error(EINVAL, path.string() + ": bad pid \"" + line + "\"");
    }
    pids.push_back(pid);
  }
  return Ok{};
}

}  // namespace

Result<std::vector<int>> cgroup_processes(const std::filesystem::path& cgroup_dir) {
  std::error_code status_error;
  if (!std::filesystem::is_directory(cgroup_dir, status_error)) {
    return make_error(ENOENT, "cgroup " + cgroup_dir.string());
  }
  std::vector<std::filesystem::path> dirs{cgroup_dir};
  std::error_code walk_error;
  for (std::filesystem::recursive_directory_iterator it(cgroup_dir, walk_error), end;
       !walk_error && it != end; it.increment(walk_error)) {
    std::error_code type_error;
    if (it->is_directory(type_error)) {
      dirs.push_back(it->path());
    }
  }
  std::vector<int> pids;
  for (const auto& dir : dirs) {
    auto path = dir / "cgroup.procs";
    std::ifstream in(path);
    if (!in) {
      if (dir == cgroup_dir) {
        return make_error(errno == 0 ? ENOENT : errno, "open " + path.string());
      }
      continue;
    }
    if (auto parsed = parse_pids(in, path, pids); !parsed.ok()) {
      return parsed.error();
    }
  }
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

}  // namespace nb::actuator
