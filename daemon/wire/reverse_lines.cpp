#include "daemon/wire/reverse_lines.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <utility>

namespace nb::wire {

namespace {

constexpr std::size_t kChunkBytes = 64 * 1024;

}  // namespace

Result<ReverseLines> ReverseLines::open(const std::filesystem::path& file, std::size_t max_bytes) {
  FileDescriptor fd(::open(file.c_str(), O_RDONLY | O_CLOEXEC));
  if (!fd.valid()) {
    if (errno == ENOENT) {
      return ReverseLines(FileDescriptor(), 0, max_bytes);
    }
    return make_error(errno, "open " + file.string());
  }
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) {
    return make_error(errno, "stat " + file.string());
  }
  return ReverseLines(std::move(fd), static_cast<std::size_t>(info.st_size), max_bytes);
}

ReverseLines::ReverseLines(FileDescriptor fd, std::size_t size, std::size_t max_bytes)
    : fd_(std::move(fd)), offset_(size), max_bytes_(max_bytes) {}

Status ReverseLines::read_chunk() {
  std::size_t size = std::min({kChunkBytes, offset_, max_bytes_ - bytes_read_});
  std::string chunk(size, '\0');
  std::size_t got = 0;
  while (got < size) {
    ssize_t n = ::pread(fd_.get(), chunk.data() + got, size - got,
                        static_cast<off_t>(offset_ - size + got));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      return make_error(errno, "read the audit log");
    }
    if (n == 0) {
      return make_error(EIO, "the audit log shrank while it was read");
    }
    got += static_cast<std::size_t>(n);
  }
  offset_ -= size;
  bytes_read_ += size;
  pending_.insert(0, chunk);
  return Ok{};
}

Result<std::optional<std::string>> ReverseLines::previous() {
  while (!done_) {
    if (auto newline = pending_.rfind('\n'); newline != std::string::npos) {
      std::string line = pending_.substr(newline + 1);
      pending_.resize(newline);
      return std::optional<std::string>(std::move(line));
    }
    if (offset_ == 0 || !fd_.valid()) {
      done_ = true;
      if (!fd_.valid()) {
        return std::optional<std::string>();
      }
      return std::optional<std::string>(std::move(pending_));
    }
    if (bytes_read_ >= max_bytes_) {
      done_ = true;
      capped_ = true;
      break;
    }
    if (auto read = read_chunk(); !read) {
      return read.error();
    }
  }
  return std::optional<std::string>();
}

}  // namespace nb::wire
