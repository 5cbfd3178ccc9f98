#pragma once
// Reading the small text files of sysfs, procfs and cgroupfs with as few syscalls as the kernel
// allows: one open, reads until a short read, one close. The scan reads thousands of them each
// round, so the buffer is the caller's and is reused.

#include <filesystem>
#include <string>

#include "base/result.hpp"

namespace nb::host {

// Reads the whole file at `path` into `buffer` (replacing its contents).
Status read_small_file(const std::filesystem::path& path, std::string& buffer);

// The same, relative to an open directory. Errors name only `relative_path`: the scanner calls
// this for every cgroup and builds the full path only when it needs to report one.
Status read_small_file_at(int directory_fd, const char* relative_path, std::string& buffer);

Result<std::string> read_small_file(const std::filesystem::path& path);

// A cgroup removed while we read it answers ENOENT on open and ENODEV on read.
inline bool vanished(const Error& error) {
  return error.vanished() || error.code == ENODEV;
}

}  // namespace nb::host
