#include "tests/actuator/fake_damon_sysfs.hpp"

#include <cerrno>
#include <charconv>
#include <optional>

#include "actuator/damon_kdamonds.hpp"

namespace nb::actuator::testing {
namespace {

std::optional<std::uint64_t> parse_number(std::string_view text) {
  std::uint64_t value = 0;
  auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || stop != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return value;
}

bool one_of(const std::string& value, std::initializer_list<std::string_view> words) {
  for (std::string_view word : words) {
    if (value == word) {
      return true;
    }
  }
  return false;
}

std::string child(const std::string& dir, std::string_view name) {
  return dir.empty() ? std::string(name) : dir + "/" + std::string(name);
}

}  // namespace

FakeDamonSysfs::FakeDamonSysfs() {
  dirs_.insert("");
  make_file("kdamonds/nr_kdamonds", "0");
}

void FakeDamonSysfs::remove_damon() {
  present_ = false;
}

void FakeDamonSysfs::add_foreign_kdamond(bool on, int pid) {
  recording_ = false;
  (void)write("kdamonds/nr_kdamonds", "1");
  (void)write("kdamonds/0/contexts/nr_contexts", "1");
  (void)write("kdamonds/0/contexts/0/targets/nr_targets", "1");
  (void)write("kdamonds/0/contexts/0/targets/0/pid_target", std::to_string(pid));
  if (on) {
    (void)write("kdamonds/0/state", "on");
  }
  recording_ = true;
}

void FakeDamonSysfs::add_marked_kdamonds(std::size_t count, int creator_pid, bool on) {
  recording_ = false;
  (void)write("kdamonds/nr_kdamonds", std::to_string(count));
  for (std::size_t i = 0; i < count; ++i) {
    (void)write(kdamond_path(i, "contexts/nr_contexts"), "1");
    (void)write(kdamond_path(i, "contexts/0/targets/nr_targets"), "1");
    (void)write(kdamond_path(i, "contexts/0/targets/0/pid_target"), "1");
    (void)write(kdamond_path(i, "contexts/0/schemes/nr_schemes"), "1");
    (void)write(kdamond_mark_path(i), std::to_string(kdamond_mark(creator_pid)));
    if (on) {
      (void)write(kdamond_path(i, "state"), "on");
    }
  }
  recording_ = true;
}

void FakeDamonSysfs::stop_kdamond(std::size_t index) {
  files_[kdamond_path(index, "state")] = "off";
}

std::size_t FakeDamonSysfs::nr_kdamonds() const {
  return present_ ? number("kdamonds/nr_kdamonds") : 0;
}

bool FakeDamonSysfs::any_on() const {
  for (std::size_t i = 0; i < nr_kdamonds(); ++i) {
    if (value(kdamond_path(i, "state")) == "on") {
      return true;
    }
  }
  return false;
}

std::string FakeDamonSysfs::value(const std::string& path) const {
  auto found = files_.find(path);
  return found == files_.end() ? "" : found->second;
}

Result<std::string> FakeDamonSysfs::read(const std::string& path) {
  if (!present_) {
    return make_error(ENOENT, "read " + describe(path));
  }
  if (auto found = files_.find(path); found != files_.end()) {
    return found->second + "\n";
  }
  return make_error(dirs_.count(path) > 0 ? EISDIR : ENOENT, "read " + describe(path));
}

Status FakeDamonSysfs::write(const std::string& path, std::string_view value) {
  std::size_t index = writes_.size();
  if (recording_) {
    writes_.push_back(path + " " + std::string(value));
    if (auto failure = fail_writes.find(index); failure != fail_writes.end()) {
      return make_error(failure->second, "write " + describe(path));
    }
  }
  if (!present_ || files_.count(path) == 0) {
    return make_error(ENOENT, "write " + describe(path));
  }
  std::string text(value);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) {
    text.pop_back();
  }
  Status stored = store(path, text);
  if (stored && after_write) {
    after_write(path, text);
  }
  return stored;
}

bool FakeDamonSysfs::exists(const std::string& path) {
  return present_ && (dirs_.count(path) > 0 || files_.count(path) > 0);
}

std::string FakeDamonSysfs::describe(const std::string& path) const {
  return child("/fake/sys/kernel/mm/damon/admin", path);
}

Status FakeDamonSysfs::store(const std::string& path, const std::string& value) {
  auto slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  auto invalid = [&] { return make_error(EINVAL, "write " + describe(path)); };
  if (name == "state") {
    return command(dir, value);
  }
  if (name == "operations" && !one_of(value, {"vaddr", "fvaddr", "paddr"})) {
    return invalid();
  }
  if (name == "action" && !one_of(value, {"willneed", "cold", "pageout", "hugepage", "nohugepage",
                                          "lru_prio", "lru_deprio", "stat"})) {
    return invalid();
  }
  bool word = name == "operations" || name == "action" || name == "metric";
  auto count = parse_number(value);
  if (!word && !count) {
    return invalid();
  }
  if (name == "nr_kdamonds") {
    if (any_on()) {
      return make_error(EBUSY, "write " + describe(path));
    }
    make_children(dir, *count, [this](const std::string& d) { make_kdamond(d); });
  } else if (name == "nr_contexts") {
    if (*count > 1) {
      return invalid();
    }
    make_children(dir, *count, [this](const std::string& d) { make_context(d); });
  } else if (name == "nr_targets") {
    make_children(dir, *count, [this](const std::string& d) { make_target(d); });
  } else if (name == "nr_schemes") {
    make_children(dir, *count, [this](const std::string& d) { make_scheme(d); });
  }
  files_[path] = value;
  return Ok{};
}

Status FakeDamonSysfs::command(const std::string& kdamond, const std::string& value) {
  std::string state = kdamond + "/state";
  bool on = files_[state] == "on";
  if (value == "on") {
    return turn_on(kdamond);
  }
  if (value == "off") {
    if (!on) {
      // Never started: no context; started and stopped: damon_stop finds no thread.
      return make_error(started_.count(kdamond) > 0 ? EPERM : EINVAL, "write " + describe(state));
    }
    files_[state] = "off";
    return Ok{};
  }
  if (!one_of(value, {"commit", "update_schemes_stats", "update_schemes_tried_regions",
                      "clear_schemes_tried_regions", "update_schemes_effective_quotas"}) ||
      !on) {
    return make_error(EINVAL, "write " + describe(state));
  }
  if (value == "update_schemes_tried_regions") {
    fill_tried_regions(kdamond + "/contexts/0");
  }
  return Ok{};
}

// The checks damon_sysfs_turn_damon_on and damon_set_attrs make.
Status FakeDamonSysfs::turn_on(const std::string& kdamond) {
  std::string state = kdamond + "/state";
  auto invalid = [&] { return make_error(EINVAL, "write " + describe(state)); };
  if (files_[state] == "on") {
    return make_error(EBUSY, "write " + describe(state));
  }
  if (number(kdamond + "/contexts/nr_contexts") != 1) {
    return invalid();
  }
  std::string context = kdamond + "/contexts/0/";
  std::string attrs = context + "monitoring_attrs/";
  if (number(attrs + "intervals/sample_us") > number(attrs + "intervals/aggr_us") ||
      number(attrs + "nr_regions/min") < 3 ||
      number(attrs + "nr_regions/min") > number(attrs + "nr_regions/max")) {
    return invalid();
  }
  for (std::uint64_t t = 0; t < number(context + "targets/nr_targets"); ++t) {
    auto pid = number(context + "targets/" + std::to_string(t) + "/pid_target");
    if (gone_pids.count(static_cast<int>(pid)) > 0) {
      return invalid();
    }
  }
  files_[state] = "on";
  started_.insert(kdamond);
  return Ok{};
}

void FakeDamonSysfs::fill_tried_regions(const std::string& context) {
  int pid = static_cast<int>(number(context + "/targets/0/pid_target"));
  for (std::uint64_t s = 0; s < number(context + "/schemes/nr_schemes"); ++s) {
    std::string scheme = context + "/schemes/" + std::to_string(s);
    std::string tried = scheme + "/tried_regions";
    auto within = [&](std::string_view range, std::uint64_t value) {
      std::string dir = scheme + "/access_pattern/" + std::string(range);
      return value >= number(dir + "/min") && value <= number(dir + "/max");
    };
    std::vector<DamonRegion> kept;
    Bytes total = 0;
    for (const DamonRegion& region : regions[pid]) {
      if (within("sz", region.end - region.start) && within("nr_accesses", region.nr_accesses) &&
          within("age", region.age)) {
        kept.push_back(region);
        total += static_cast<Bytes>(region.end - region.start);
      }
    }
    make_children(tried, kept.size(), [](const std::string&) {});
    for (std::size_t i = 0; i < kept.size(); ++i) {
      std::string dir = tried + "/" + std::to_string(i) + "/";
      make_file(dir + "start", std::to_string(kept[i].start));
      make_file(dir + "end", std::to_string(kept[i].end));
      make_file(dir + "nr_accesses", std::to_string(kept[i].nr_accesses));
      make_file(dir + "age", std::to_string(kept[i].age));
    }
    files_[tried + "/total_bytes"] = std::to_string(total);
  }
}

// Like the kernel, a new count removes every numbered child first.
void FakeDamonSysfs::make_children(const std::string& dir, std::size_t count,
                                   const std::function<void(const std::string&)>& make) {
  for (std::size_t i = 0; dirs_.count(child(dir, std::to_string(i))) > 0; ++i) {
    remove_tree(child(dir, std::to_string(i)));
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::string made = child(dir, std::to_string(i));
    dirs_.insert(made);
    make(made);
  }
}

void FakeDamonSysfs::make_kdamond(const std::string& dir) {
  make_file(dir + "/state", "off");
  make_file(dir + "/pid", "-1");
  make_file(dir + "/contexts/nr_contexts", "0");
}

void FakeDamonSysfs::make_context(const std::string& dir) {
  make_file(dir + "/avail_operations", "vaddr\nfvaddr\npaddr");
  make_file(dir + "/operations", "vaddr");
  make_file(dir + "/monitoring_attrs/intervals/sample_us", "5000");
  make_file(dir + "/monitoring_attrs/intervals/aggr_us", "100000");
  make_file(dir + "/monitoring_attrs/intervals/update_us", "1000000");
  make_file(dir + "/monitoring_attrs/nr_regions/min", "10");
  make_file(dir + "/monitoring_attrs/nr_regions/max", "1000");
  make_file(dir + "/targets/nr_targets", "0");
  make_file(dir + "/schemes/nr_schemes", "0");
}

void FakeDamonSysfs::make_target(const std::string& dir) {
  make_file(dir + "/pid_target", "0");
  make_file(dir + "/regions/nr_regions", "0");
}

void FakeDamonSysfs::make_scheme(const std::string& dir) {
  make_file(dir + "/action", "stat");
  make_file(dir + "/apply_interval_us", "0");
  for (const char* range : {"sz", "nr_accesses", "age"}) {
    make_file(dir + "/access_pattern/" + range + "/min", "0");
    make_file(dir + "/access_pattern/" + range + "/max", "0");
  }
  for (const char* file : {"ms", "bytes", "reset_interval_ms", "weights/sz_permil",
                           "weights/nr_accesses_permil", "weights/age_permil"}) {
    make_file(dir + "/quotas/" + file, "0");
  }
  make_file(dir + "/watermarks/metric", "none");
  for (const char* file : {"interval_us", "high", "mid", "low"}) {
    make_file(dir + "/watermarks/" + file, "0");
  }
  make_file(dir + "/filters/nr_filters", "0");
  make_file(dir + "/tried_regions/total_bytes", "0");
}

void FakeDamonSysfs::make_file(const std::string& path, std::string value) {
  for (auto slash = path.find('/'); slash != std::string::npos; slash = path.find('/', slash + 1)) {
    dirs_.insert(path.substr(0, slash));
  }
  files_[path] = std::move(value);
}

void FakeDamonSysfs::remove_tree(const std::string& dir) {
  std::string prefix = dir + "/";
  std::erase_if(files_, [&](const auto& file) { return file.first.starts_with(prefix); });
  std::erase_if(dirs_, [&](const std::string& d) { return d == dir || d.starts_with(prefix); });
  started_.erase(dir);
}

std::uint64_t FakeDamonSysfs::number(const std::string& path) const {
  return parse_number(value(path)).value_or(0);
}

}  // namespace nb::actuator::testing
