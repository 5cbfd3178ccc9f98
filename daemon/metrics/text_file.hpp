#pragma once
// Small readers for the one-value files of sysfs and resctrl. Errors carry errno and the path.

#include <cstdint>
#include <filesystem>
#include <string>

#include "base/result.hpp"

namespace nb::metrics {

// A regular file only (EINVAL otherwise, naming a named pipe as such), opened without blocking.
Result<std::string> read_text_file(const std::filesystem::path& path);

// The file's content without surrounding whitespace (sysfs values end with a newline).
Result<std::string> read_trimmed(const std::filesystem::path& path);

// A decimal or 0x-prefixed hexadecimal unsigned integer; anything else is an error naming `path`.
Result<std::uint64_t> read_unsigned(const std::filesystem::path& path);
Result<std::uint64_t> parse_unsigned(std::string_view text, const std::string& what);

std::string trim(std::string_view text);

}  // namespace nb::metrics
