#pragma once
// Collects Decision::explanation. Lines that exist once per container are only built when the
// caller asked for them, so a live round over thousands of cgroups does not pay for strings.

#include <string>
#include <utility>
#include <vector>

namespace nb::core {

class Notes {
 public:
  Notes(std::vector<std::string>& lines, bool per_container)
      : lines_(lines), per_container_(per_container) {}

  void add(std::string line) { lines_.push_back(std::move(line)); }

  bool per_container() const { return per_container_; }

  // `make` builds the line; it is only called when per-container lines were asked for.
  template <typename MakeLine>
  void add_per_container(MakeLine&& make) {
    if (per_container_) {
      lines_.push_back(std::forward<MakeLine>(make)());
    }
  }

 private:
  std::vector<std::string>& lines_;
  bool per_container_;
};

}  // namespace nb::core
