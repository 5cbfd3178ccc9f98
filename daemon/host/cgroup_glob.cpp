#include "daemon/host/cgroup_glob.hpp"

#include <fnmatch.h>

#include <algorithm>

namespace nb::host {

void GlobSet::add(std::string_view glob, std::size_t owner) {
  Glob compiled{.levels = {}, .owner = owner};
  while (!glob.empty()) {
    const auto slash = glob.find('/');
    const std::string_view level = glob.substr(0, slash);
    glob = slash == std::string_view::npos ? std::string_view{} : glob.substr(slash + 1);
    // Empty levels ("a//b", a leading or trailing '/') carry no meaning in a cgroup path.
    if (level.empty()) {
      continue;
    }
    if (level == "**" && !compiled.levels.empty() && compiled.levels.back().any_depth) {
      continue;
    }
    compiled.levels.push_back(Level{
        .text = std::string(level),
        .any_depth = level == "**",
        .literal = level.find_first_of("*?[\\") == std::string_view::npos,
    });
  }
  globs_.push_back(std::move(compiled));
}

void GlobSet::add_closed(States& states, State state) const {
  // A "**" may match no level at all, so reaching it also reaches the level after it.
  const auto& levels = globs_[state.glob].levels;
  for (;;) {
    if (std::find(states.begin(), states.end(), state) == states.end()) {
      states.push_back(state);
    }
    if (state.level >= levels.size() || !levels[state.level].any_depth) {
      return;
    }
    ++state.level;
  }
}

GlobSet::States GlobSet::start() const {
  States states;
  for (std::uint32_t i = 0; i < globs_.size(); ++i) {
    add_closed(states, State{.glob = i, .level = 0});
  }
  return states;
}

void GlobSet::step(const States& from, std::string_view name, States& into,
                   std::vector<std::size_t>& matched_owners) const {
  into.clear();
  matched_owners.clear();
  // fnmatch needs a terminated string; cgroup names are short, so this rarely allocates.
  std::string terminated;
  for (const State& state : from) {
    const auto& levels = globs_[state.glob].levels;
    if (state.level >= levels.size()) {
      continue;
    }
    const Level& level = levels[state.level];
    if (level.any_depth) {
      add_closed(into, state);
      continue;
    }
    bool matches = false;
    if (level.literal) {
      matches = level.text == name;
    } else {
      if (terminated.empty()) {
        terminated.assign(name);
      }
      matches = ::fnmatch(level.text.c_str(), terminated.c_str(), 0) == 0;
    }
    if (matches) {
      add_closed(into, State{.glob = state.glob, .level = state.level + 1});
    }
  }
  for (const State& state : into) {
    if (state.level == globs_[state.glob].levels.size()) {
      const std::size_t owner = globs_[state.glob].owner;
      if (std::find(matched_owners.begin(), matched_owners.end(), owner) == matched_owners.end()) {
        matched_owners.push_back(owner);
      }
    }
  }
}

bool GlobSet::can_descend(const States& states) const {
  return std::any_of(states.begin(), states.end(), [this](const State& state) {
    return state.level < globs_[state.glob].levels.size();
  });
}

std::vector<std::size_t> GlobSet::owners_matching(std::string_view cgroup_path) const {
  States current = start();
  States next;
  std::vector<std::size_t> owners;
  bool any_level = false;
  while (!cgroup_path.empty()) {
    const auto slash = cgroup_path.find('/');
    const std::string_view name = cgroup_path.substr(0, slash);
    cgroup_path =
        slash == std::string_view::npos ? std::string_view{} : cgroup_path.substr(slash + 1);
    if (name.empty()) {
      continue;
    }
    step(current, name, next, owners);
    current.swap(next);
    any_level = true;
  }
  if (!any_level) {
    owners.clear();
  }
  return owners;
}

}  // namespace nb::host
