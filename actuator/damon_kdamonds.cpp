#include "actuator/damon_kdamonds.hpp"

#include <algorithm>
#include <utility>

namespace nb::actuator {
namespace {

// A pid is below kMaxPid (4194304), so a mark's offset from the base tells the pid.
constexpr std::uint64_t kMarkSpan = 1'000'000'000;
constexpr int kWriteAttempts = 3;

Status write_retrying(DamonSysfs& sysfs, const std::string& path, std::string_view value) {
  Status written = sysfs.write(path, value);
  for (int attempt = 1; attempt < kWriteAttempts && !written.ok(); ++attempt) {
    written = sysfs.write(path, value);
  }
  return written;
}

bool alive(const std::filesystem::path& proc_root, int pid) {
  std::error_code error;
  return std::filesystem::exists(proc_root / std::to_string(pid), error);
}

}  // namespace

std::string kdamond_path(std::size_t index, std::string_view file) {
  return "kdamonds/" + std::to_string(index) + "/" + std::string(file);
}

std::string kdamond_mark_path(std::size_t index) {
  return kdamond_path(index, "contexts/0/schemes/0/quotas/reset_interval_ms");
}

std::uint64_t kdamond_mark(int creator_pid) {
  return kKdamondMarkBase + static_cast<std::uint64_t>(creator_pid);
}

bool KdamondCensus::all_marked() const {
  return std::all_of(creators.begin(), creators.end(),
                     [](const std::optional<int>& creator) { return creator.has_value(); });
}

Result<KdamondCensus> take_census(DamonSysfs& sysfs) {
  auto count = read_number(sysfs, "kdamonds/nr_kdamonds");
  if (!count) {
    return count.error();
  }
  KdamondCensus census;
  census.count = static_cast<std::size_t>(*count);
  for (std::size_t i = 0; i < census.count; ++i) {
    // A kdamond without a scheme, or with another value there, is not ours.
    auto mark = read_number(sysfs, kdamond_mark_path(i));
    std::optional<int> creator;
    if (mark && *mark > kKdamondMarkBase && *mark - kKdamondMarkBase < kMarkSpan) {
      creator = static_cast<int>(*mark - kKdamondMarkBase);
    }
    census.creators.push_back(creator);
  }
  return census;
}

Status remove_kdamonds(DamonSysfs& sysfs, std::size_t count) {
  std::optional<Error> failed;
  for (std::size_t i = 0; i < count; ++i) {
    // One that stopped by itself (its process exited) reads "off", and "off" would fail on it.
    auto state = read_word(sysfs, kdamond_path(i, "state"));
    if (state && *state == "off") {
      continue;
    }
    if (auto off = write_retrying(sysfs, kdamond_path(i, "state"), "off"); !off && !failed) {
      failed = off.error();
    }
  }
  if (auto emptied = write_retrying(sysfs, "kdamonds/nr_kdamonds", "0"); !emptied) {
    return failed ? *failed : emptied.error();
  }
  return Ok{};
}

// A write that fails leaves the kernel's list empty (it removes what it made), or holding
// another's kdamonds if one raced us in: either way there is nothing of ours to remove.
Status KdamondSession::create(std::size_t count) {
  Status written = sysfs_.write("kdamonds/nr_kdamonds", std::to_string(count));
  if (written) {
    count_ = count;
  }
  return written;
}

// A kdamond of ours that failed before its mark was written has none: unmarked ones count as
// ours, marked ones only with our pid.
std::optional<Error> KdamondSession::finish() {
  std::size_t count = std::exchange(count_, 0);
  if (count == 0) {
    return std::nullopt;
  }
  if (auto census = take_census(sysfs_); census) {
    bool ours =
        census->count == count && std::all_of(census->creators.begin(), census->creators.end(),
                                              [this](const std::optional<int>& creator) {
                                                return creator.value_or(own_pid_) == own_pid_;
                                              });
    if (!ours) {
      return make_error(0,
                        "DAMON's kdamonds changed while numabalancer used them; left as they are");
    }
  }
  if (auto removed = remove_kdamonds(sysfs_, count); !removed) {
    return removed.error();
  }
  return std::nullopt;
}

Result<StaleCleanup> remove_stale_kdamonds(DamonSysfs& sysfs,
                                           const std::filesystem::path& proc_root, int own_pid) {
  StaleCleanup cleanup;
  if (!sysfs.exists("kdamonds/nr_kdamonds")) {
    return cleanup;
  }
  auto census = take_census(sysfs);
  if (!census) {
    return census.error();
  }
  if (census->count == 0) {
    return cleanup;
  }
  if (!census->all_marked()) {
    auto foreign = std::count(census->creators.begin(), census->creators.end(), std::nullopt);
    cleanup.left_alone = std::to_string(foreign) + (foreign == 1 ? " kdamond" : " kdamonds") +
                         " of another tool in DAMON's list";
    return cleanup;
  }
  for (const auto& creator : census->creators) {
    if (*creator != own_pid && alive(proc_root, *creator)) {
      cleanup.left_alone = "kdamonds of numabalancer process " + std::to_string(*creator) +
                           ", which is still running";
      return cleanup;
    }
  }
  if (auto removed = remove_kdamonds(sysfs, census->count); !removed) {
    return removed.error();
  }
  cleanup.removed = census->count;
  return cleanup;
}

}  // namespace nb::actuator
