#pragma once
// Pool globs over cgroup paths relative to the cgroup root, e.g. "system.slice/*.service".
// Within a level `*`, `?` and `[...]` match as in fnmatch(3) and never cross a '/'; a level that is
// exactly `**` matches any number of levels, none included. The root cgroup itself never matches.
// The set is matched one directory level at a time, so a walk descends only where some glob can
// still match.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace nb::host {

class GlobSet {
 public:
  // `owner` is returned for matches of this glob (the scanner uses the pool's index).
  void add(std::string_view glob, std::size_t owner);

  // Where matching stands after some levels: one entry per (glob, level reached).
  struct State {
    std::uint32_t glob;
    std::uint32_t level;
    friend bool operator==(const State&, const State&) = default;
  };
  using States = std::vector<State>;

  States start() const;
  // Advances `from` by one directory name into `into` (cleared first), with the owners of the
  // globs that end exactly at that name in `matched_owners` (deduplicated).
  void step(const States& from, std::string_view name, States& into,
            std::vector<std::size_t>& matched_owners) const;
  // Whether some glob in `states` can still match a deeper level.
  bool can_descend(const States& states) const;

  // Matches a whole relative path at once.
  std::vector<std::size_t> owners_matching(std::string_view cgroup_path) const;

 private:
  struct Level {
    std::string text;
    bool any_depth = false;  // "**"
    bool literal = false;    // no wildcard: compared directly, without fnmatch
  };
  struct Glob {
    std::vector<Level> levels;
    std::size_t owner = 0;
  };
  void add_closed(States& states, State state) const;

  std::vector<Glob> globs_;
};

}  // namespace nb::host
