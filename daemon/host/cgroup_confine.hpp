#pragma once
// A cgroup path an operator typed, resolved beneath the memory controller's root and nowhere
// else: a manual `migrate` must not reach past the hierarchy the daemon works in. A component
// ".." is refused outright; an absolute path must lie beneath the root (after lexical
// normalisation) and is then taken relative to it; the directory is opened with
// openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), so a symbolic link cannot lead out either.

#include <filesystem>
#include <string_view>

#include "base/result.hpp"

namespace nb::host {

struct ConfinedCgroup {
  std::filesystem::path relative;  // beneath the root; empty for the root itself
  std::filesystem::path dir;       // the root joined with `relative`
};

// openat2 where the kernel has it (5.6+); `walk` (also taken on ENOSYS) opens one component at a
// time with O_NOFOLLOW and refuses symbolic links it meets.
enum class BeneathOpen { openat2, walk };

// Errors name the rule that refused: code 0 for "..", a path outside the root or a symbolic
// link; ENOENT or ENOTDIR when no such directory exists; another errno when the root can't be
// opened.
Result<ConfinedCgroup> confine_cgroup(const std::filesystem::path& memory_root,
                                      std::string_view text,
                                      BeneathOpen how = BeneathOpen::openat2);

}  // namespace nb::host
