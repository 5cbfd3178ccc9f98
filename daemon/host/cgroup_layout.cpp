#include "daemon/host/cgroup_layout.hpp"

#include <libcgroup.h>

#include <algorithm>
#include <cstdarg>
#include <cstdlib>
#include <mutex>
#include <system_error>

#include "base/enum_names.hpp"
#include "daemon/host/small_file.hpp"

namespace nb::host {
namespace {

bool has_option(const Mount& mount, std::string_view option) {
  return std::find(mount.options.begin(), mount.options.end(), option) != mount.options.end();
}

// /proc/self/mounts escapes space, tab, newline and backslash as three octal digits.
std::string decode_octal_escapes(std::string_view field) {
  std::string out;
  out.reserve(field.size());
  for (std::size_t i = 0; i < field.size(); ++i) {
    if (field[i] == '\\' && i + 3 < field.size() &&
        std::all_of(field.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                    field.begin() + static_cast<std::ptrdiff_t>(i) + 4,
                    [](char c) { return c >= '0' && c <= '7'; })) {
      out.push_back(static_cast<char>((field[i + 1] - '0') * 64 + (field[i + 2] - '0') * 8 +
                                      (field[i + 3] - '0')));
      i += 3;
    } else {
      out.push_back(field[i]);
    }
  }
  return out;
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto at = text.find(separator);
    parts.push_back(text.substr(0, at));
    if (at == std::string_view::npos) {
      return parts;
    }
    text = text.substr(at + 1);
  }
}

std::filesystem::path under_root(const std::filesystem::path& host_root,
                                 const std::filesystem::path& mount_point) {
  return host_root / mount_point.relative_path();
}

bool is_live_root(const std::filesystem::path& host_root) {
  return host_root.lexically_normal() == "/";
}

// A captured tree may hold proc/mounts (what a copy of /proc keeps) but not proc/self/mounts,
// which is a symlink into the capturing process. When neither exists, the error names
// proc/self/mounts, the one the live host has.
std::filesystem::path mount_table(const std::filesystem::path& host_root) {
  auto self = host_root / "proc/self/mounts";
  auto shared = host_root / "proc/mounts";
  std::error_code error;
  if (!std::filesystem::exists(self, error) && std::filesystem::exists(shared, error)) {
    return shared;
  }
  return self;
}

bool controllers_include(const std::filesystem::path& v2_root, std::string_view controller) {
  auto text = read_small_file(v2_root / "cgroup.controllers");
  if (!text) {
    return false;
  }
  for (std::string_view word : split(*text, ' ')) {
    while (!word.empty() && (word.back() == '\n' || word.back() == ' ')) {
      word.remove_suffix(1);
    }
    if (word == controller) {
      return true;
    }
  }
  return false;
}

// Several cgroup2 mounts can exist (bind mounts into containers); the host's is under
// /sys/fs/cgroup.
const Mount* find_v2_mount(const std::vector<Mount>& mounts) {
  const Mount* found = nullptr;
  for (const Mount& mount : mounts) {
    if (mount.fstype != "cgroup2") {
      continue;
    }
    if (mount.mount_point.string().starts_with("/sys/fs/cgroup")) {
      return &mount;
    }
    if (found == nullptr) {
      found = &mount;
    }
  }
  return found;
}

const Mount* find_v1_mount(const std::vector<Mount>& mounts, std::string_view controller) {
  for (const Mount& mount : mounts) {
    if (mount.fstype == "cgroup" && has_option(mount, controller)) {
      return &mount;
    }
  }
  return nullptr;
}

void quiet_logger(void*, int, const char*, va_list) {}

}  // namespace

std::string_view to_string(CgroupMode mode) {
  static constexpr EnumName<CgroupMode> kModeNames[] = {
      {CgroupMode::v2, "v2"}, {CgroupMode::hybrid, "hybrid"}, {CgroupMode::v1, "v1"}};
  static_assert(names_every_value(kModeNames));
  return name_of(kModeNames, mode);
}

std::filesystem::path CgroupLayout::container_dir(std::string_view container_id) const {
  return memory_root / std::filesystem::path(container_id).relative_path();
}

std::string_view effective_cpus_file(const CgroupLayout& layout) {
  const bool cpuset_on_v2 =
      layout.cpuset_root && layout.unified_root && *layout.cpuset_root == *layout.unified_root;
  return cpuset_on_v2 ? "cpuset.cpus.effective" : "cpuset.effective_cpus";
}

Result<std::vector<Mount>> parse_mounts(std::string_view text, std::string_view context) {
  std::vector<Mount> mounts;
  for (std::string_view line : split(text, '\n')) {
    if (line.empty()) {
      continue;
    }
    const auto fields = split(line, ' ');
    if (fields.size() < 4 || fields[1].empty() || fields[1].front() != '/') {
      return make_error(0,
                        std::string(context) + ": not a mounts line: '" + std::string(line) + "'");
    }
    Mount mount{.fstype = std::string(fields[2]),
                .mount_point = decode_octal_escapes(fields[1]),
                .options = {}};
    for (std::string_view option : split(fields[3], ',')) {
      mount.options.emplace_back(option);
    }
    mounts.push_back(std::move(mount));
  }
  return mounts;
}

Result<CgroupLayout> layout_from_mounts(const std::filesystem::path& host_root,
                                        const std::vector<Mount>& mounts) {
  const Mount* v2 = find_v2_mount(mounts);
  const Mount* memory_v1 = find_v1_mount(mounts, "memory");
  const Mount* cpuset_v1 = find_v1_mount(mounts, "cpuset");

  std::optional<std::filesystem::path> unified;
  if (v2 != nullptr) {
    unified = under_root(host_root, v2->mount_point);
  }
  if (memory_v1 != nullptr) {
    CgroupLayout layout{.mode = unified ? CgroupMode::hybrid : CgroupMode::v1,
                        .memory_root = under_root(host_root, memory_v1->mount_point),
                        .cpuset_root = std::nullopt,
                        .unified_root = unified};
    if (cpuset_v1 != nullptr) {
      layout.cpuset_root = under_root(host_root, cpuset_v1->mount_point);
    } else if (unified && controllers_include(*unified, "cpuset")) {
      layout.cpuset_root = unified;
    }
    return layout;
  }
  if (!unified) {
    return make_error(ENOENT, "no cgroup hierarchy with the memory controller in " +
                                  mount_table(host_root).string());
  }
  if (!controllers_include(*unified, "memory")) {
    return make_error(0, "the memory controller is not available in " +
                             (*unified / "cgroup.controllers").string());
  }
  CgroupLayout layout{.mode = CgroupMode::v2,
                      .memory_root = *unified,
                      .cpuset_root = std::nullopt,
                      .unified_root = unified};
  if (controllers_include(*unified, "cpuset")) {
    layout.cpuset_root = unified;
  }
  return layout;
}

std::optional<LibcgroupMounts> libcgroup_mounts() {
  // libcgroup keeps its mount table in process-wide state and prints errors to stdout unless
  // given a logger, which would corrupt `snapshot` output.
  static const int init_result = [] {
    cgroup_set_logger(quiet_logger, -1, nullptr);
    return cgroup_init();
  }();
  if (init_result != 0) {
    return std::nullopt;
  }
  auto mount_point = [](const char* controller) -> std::optional<std::filesystem::path> {
    char* path = nullptr;
    if (cgroup_get_subsys_mount_point(controller, &path) != 0 || path == nullptr) {
      std::free(path);
      return std::nullopt;
    }
    std::filesystem::path result(path);
    std::free(path);
    return result;
  };
  return LibcgroupMounts{.memory = mount_point("memory"), .cpuset = mount_point("cpuset")};
}

std::string_view cgroup_discovery_source(const std::filesystem::path& host_root) {
  if (is_live_root(host_root)) {
    auto mounts = libcgroup_mounts();
    if (mounts && mounts->memory) {
      return "libcgroup";
    }
  }
  return "mounts";
}

Result<CgroupLayout> detect_cgroup_layout(const std::filesystem::path& host_root) {
  const auto mounts_path = mount_table(host_root);
  auto text = read_small_file(mounts_path);
  if (!text) {
    return text.error();
  }
  auto mounts = parse_mounts(*text, mounts_path.string());
  if (!mounts) {
    return mounts.error();
  }
  auto layout = layout_from_mounts(host_root, *mounts);
  if (!layout || !is_live_root(host_root)) {
    return layout;
  }
  if (auto from_library = libcgroup_mounts()) {
    if (from_library->memory) {
      layout->memory_root = *from_library->memory;
    }
    // libcgroup 2.0 reports only v1 cpuset mounts reliably; a v2 cpuset stays as found.
    if (from_library->cpuset && layout->mode != CgroupMode::v2) {
      layout->cpuset_root = *from_library->cpuset;
    }
  }
  return layout;
}

}  // namespace nb::host
