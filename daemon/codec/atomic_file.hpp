#pragma once
// Replacing a file so that a reader sees the old content or the new, never half of either: the
// new content goes to a temp file in the same directory (rename is atomic only within one file
// system), is fsynced, and is renamed over the target; the directory is fsynced so the rename
// survives a crash.

#include <filesystem>
#include <string_view>

#include "base/result.hpp"

namespace nb::codec {

// The file gets mode 0644 (node_exporter and other readers run as their own users). A failure
// leaves the old file as it was and no temp file behind.
Status write_file_atomically(const std::filesystem::path& file, std::string_view content);

}  // namespace nb::codec
