#pragma once
// DAMON's sysfs interface in memory, behind the DamonSysfs seam. It follows the kernel's rules for
// what the engine writes: nr_kdamonds recreates the kdamond directories and answers EBUSY while
// one is on; nr_contexts, nr_targets and nr_schemes create their subdirectories; `state` takes
// on, off, commit and update_schemes_tried_regions, and the last fills each scheme's
// tried_regions with the scripted regions of the kdamond's target that fit the scheme's access
// pattern (whose maxima start at 0, as the kernel's do). It records every write and fails any
// one of them with a chosen errno.

#include <cstddef>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "actuator/damon_monitor.hpp"
#include "actuator/damon_sysfs.hpp"

namespace nb::actuator::testing {

class FakeDamonSysfs final : public DamonSysfs {
 public:
  FakeDamonSysfs();

  // Setting up the host: DAMON absent, another tool's kdamond, kdamonds a numabalancer made.
  void remove_damon();
  // One kdamond of another tool watching `pid`, on or off; the writes are not recorded.
  void add_foreign_kdamond(bool on, int pid = 1);
  // `count` kdamonds marked as `creator_pid`'s, on or off; the writes are not recorded.
  void add_marked_kdamonds(std::size_t count, int creator_pid, bool on);
  // The kdamond stops by itself, as when its process exits.
  void stop_kdamond(std::size_t index);

  std::size_t nr_kdamonds() const;
  bool any_on() const;
  // The file's value without its newline; "" when there is no such file.
  std::string value(const std::string& path) const;
  // The writes recorded, as "path value", in order.
  const std::vector<std::string>& writes() const { return writes_; }
  void clear_writes() { writes_.clear(); }

  // What DAMON reports for each pid's address space.
  std::map<int, std::vector<DamonRegion>> regions;
  // Pids that no longer exist: `on` answers EINVAL for a kdamond watching one.
  std::set<int> gone_pids;
  // Write number (0-based, over every write recorded) -> the errno it fails with.
  std::map<std::size_t, int> fail_writes;
  // Runs after every write that succeeded.
  std::function<void(const std::string& path, std::string_view value)> after_write;

  Result<std::string> read(const std::string& path) override;
  Status write(const std::string& path, std::string_view value) override;
  bool exists(const std::string& path) override;
  std::string describe(const std::string& path) const override;

 private:
  Status store(const std::string& path, const std::string& value);
  Status command(const std::string& kdamond, const std::string& value);
  Status turn_on(const std::string& kdamond);
  void fill_tried_regions(const std::string& context);
  void make_children(const std::string& dir, std::size_t count,
                     const std::function<void(const std::string&)>& make);
  void make_kdamond(const std::string& dir);
  void make_context(const std::string& dir);
  void make_target(const std::string& dir);
  void make_scheme(const std::string& dir);
  void make_file(const std::string& path, std::string value);
  void remove_tree(const std::string& dir);
  std::uint64_t number(const std::string& path) const;

  bool present_ = true;
  std::set<std::string> dirs_;
  std::map<std::string, std::string> files_;
  std::set<std::string> started_;  // kdamonds turned on at least once
  std::vector<std::string> writes_;
  bool recording_ = true;
};

}  // namespace nb::actuator::testing
