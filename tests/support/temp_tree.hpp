#pragma once
// A directory tree built in code under a fresh temp dir and removed afterwards: the fake sysfs,
// procfs and cgroupfs that host readers and the actuator are tested against.

#include <filesystem>
#include <string>
#include <string_view>

namespace nb::testing {

class TempTree {
 public:
  TempTree();
  ~TempTree();
  TempTree(const TempTree&) = delete;
  TempTree& operator=(const TempTree&) = delete;

  const std::filesystem::path& root() const { return root_; }
  std::filesystem::path path(std::string_view relative) const;

  // Creates parent directories as needed; returns the full path.
  std::filesystem::path make_dir(std::string_view relative) const;
  std::filesystem::path make_file(std::string_view relative, std::string_view content) const;
  void remove(std::string_view relative) const;

 private:
  std::filesystem::path root_;
};

std::string read_file(const std::filesystem::path& path);

}  // namespace nb::testing
