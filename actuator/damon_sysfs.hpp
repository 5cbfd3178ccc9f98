#pragma once
// The seam between the engine and DAMON's sysfs interface (/sys/kernel/mm/damon/admin): read a
// file, write one, ask whether a path exists. Paths are relative to the admin directory
// ("kdamonds/nr_kdamonds"; "" is the directory itself). Production works on the real directory
// (LinuxDamonSysfs); tests substitute a fake that follows the kernel's rules for the files the
// engine writes, so every write's failure can be driven without a kernel.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "base/result.hpp"

namespace nb::actuator {

class DamonSysfs {
 public:
  virtual ~DamonSysfs() = default;

  // The file's text as the kernel gives it (with its trailing newline).
  virtual Result<std::string> read(const std::string& path) = 0;
  // Writes `value` in one write(2), newline-terminated as the kernel's parsers accept; the
  // error carries the errno the kernel answered and the file's path.
  virtual Status write(const std::string& path, std::string_view value) = 0;
  virtual bool exists(const std::string& path) = 0;
  // Where the files are, for messages.
  virtual std::string describe(const std::string& path) const = 0;
};

class LinuxDamonSysfs final : public DamonSysfs {
 public:
  // `admin_root` is /sys/kernel/mm/damon/admin under the host's sysfs.
  explicit LinuxDamonSysfs(std::filesystem::path admin_root) : root_(std::move(admin_root)) {}

  Result<std::string> read(const std::string& path) override;
  Status write(const std::string& path, std::string_view value) override;
  bool exists(const std::string& path) override;
  std::string describe(const std::string& path) const override;

 private:
  std::filesystem::path root_;
};

// A file holding one unsigned number; EINVAL when it holds anything else.
Result<std::uint64_t> read_number(DamonSysfs& sysfs, const std::string& path);
// A file holding one word, without its newline.
Result<std::string> read_word(DamonSysfs& sysfs, const std::string& path);

// DAMON's admin directory under a sysfs root ("/sys").
std::filesystem::path damon_admin_root(const std::filesystem::path& sys_root);

}  // namespace nb::actuator
