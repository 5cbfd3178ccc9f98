#pragma once
// numabalancer's own kdamonds, told apart from a host tool's: the mark it writes into each, the
// census of the kdamonds that exist, and their removal. DAMON's sysfs interface keeps one list of
// kdamonds for the whole host, and writing its length recreates every entry (and fails while one
// is on), so numabalancer adds its own only to an empty list and removes them by emptying it: it
// never writes into a kdamond it did not create, nor changes the list while another's is in it.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/damon_sysfs.hpp"
#include "base/result.hpp"

namespace nb::actuator {

// The mark: scheme 0's quotas/reset_interval_ms holds kKdamondMarkBase plus the pid of the process
// that created the kdamond. DAMON reads that interval only for a scheme with a quota (a time, a
// size or goals), which ours never has, so the mark changes nothing DAMON does; and 4242 billion
// ms (134 years) plus a pid is no value a tool would pick.
inline constexpr std::uint64_t kKdamondMarkBase = 4'242'000'000'000;

// "kdamonds/3/state" for (3, "state").
std::string kdamond_path(std::size_t index, std::string_view file);
std::string kdamond_mark_path(std::size_t index);
std::uint64_t kdamond_mark(int creator_pid);

struct KdamondCensus {
  std::size_t count = 0;
  // Per kdamond: the pid of the numabalancer process that marked it, empty when none did.
  std::vector<std::optional<int>> creators;

  bool all_marked() const;
};
Result<KdamondCensus> take_census(DamonSysfs& sysfs);

// Turns off each of the first `count` kdamonds that is on, then empties the list. Each write is
// tried a few times: the kernel answers EBUSY while another writer holds DAMON's sysfs lock.
Status remove_kdamonds(DamonSysfs& sysfs, std::size_t count);

// The kdamonds one run created: removed by finish(), or when the session goes out of scope, so
// that no way out of a run (an exception included) leaves one behind.
class KdamondSession {
 public:
  KdamondSession(DamonSysfs& sysfs, int own_pid) : sysfs_(sysfs), own_pid_(own_pid) {}
  ~KdamondSession() { (void)finish(); }
  KdamondSession(const KdamondSession&) = delete;
  KdamondSession& operator=(const KdamondSession&) = delete;

  // Sets the list's length; the caller found it empty, so every entry is then ours.
  Status create(std::size_t count);
  // Removes the run's kdamonds, unless the list no longer holds just them: what another writer
  // put there meanwhile is not ours to remove. The error says what was left behind.
  std::optional<Error> finish();

 private:
  DamonSysfs& sysfs_;
  int own_pid_;
  std::size_t count_ = 0;
};

struct StaleCleanup {
  std::size_t removed = 0;
  std::string left_alone;  // why existing kdamonds were kept, empty when there were none
};

// Removes the kdamonds a numabalancer process left behind when it died (a crash, SIGKILL): only
// when every kdamond in the list carries the mark and each creator is gone from `proc_root` (or
// is `own_pid`, which has created none yet). Anything else is another's, or a live run's, and is
// left alone. Nothing to do when DAMON is absent.
Result<StaleCleanup> remove_stale_kdamonds(DamonSysfs& sysfs,
                                           const std::filesystem::path& proc_root, int own_pid);

}  // namespace nb::actuator
