#pragma once
// The lines of a file, last first: reads the file backwards in chunks so that the newest lines of a
// long log cost what they are, not what the whole file is. `max_bytes` bounds what is read; the
// partial line at that boundary is not returned.

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

#include "base/file_descriptor.hpp"
#include "base/result.hpp"

namespace nb::wire {

class ReverseLines {
 public:
  // A missing file has no lines.
  static Result<ReverseLines> open(const std::filesystem::path& file, std::size_t max_bytes);

  ReverseLines(ReverseLines&& other) noexcept = default;
  ReverseLines& operator=(ReverseLines&&) = delete;
  ReverseLines(const ReverseLines&) = delete;
  ReverseLines& operator=(const ReverseLines&) = delete;

  // The previous line without its newline (possibly empty); nullopt at the start of the file or
  // at the byte cap.
  Result<std::optional<std::string>> previous();

  std::size_t bytes_read() const { return bytes_read_; }
  // True when the cap, not the start of the file, ended the lines.
  bool capped() const { return capped_; }

 private:
  ReverseLines(FileDescriptor fd, std::size_t size, std::size_t max_bytes);
  Status read_chunk();

  FileDescriptor fd_;       // none for a missing file
  std::size_t offset_ = 0;  // file offset where pending_ begins
  std::size_t max_bytes_ = 0;
  std::size_t bytes_read_ = 0;
  bool capped_ = false;
  bool done_ = false;
  std::string pending_;  // bytes not yet returned, ending where the last returned line began
};

}  // namespace nb::wire
