#include "daemon/host/small_file.hpp"

#include <fcntl.h>
#include <unistd.h>

namespace nb::host {
namespace {

// Big enough for a numa_stat of a many-node host in one read; grows if a file is larger.
constexpr std::size_t kInitialCapacity = 16 * 1024;

Status read_all(int fd, std::string& buffer, std::string_view context) {
  if (buffer.capacity() < kInitialCapacity) {
    buffer.reserve(kInitialCapacity);
  }
  buffer.resize(buffer.capacity());
  std::size_t used = 0;
  for (;;) {
    if (used == buffer.size()) {
      buffer.resize(buffer.size() * 2);
    }
    const std::size_t room = buffer.size() - used;
    const ssize_t got = ::read(fd, buffer.data() + used, room);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int code = errno;
      buffer.clear();
      return make_error(code, "read " + std::string(context));
    }
    used += static_cast<std::size_t>(got);
    // Regular files and kernfs seq_files only return less than asked for at the end, so a short
    // read saves the extra read() that would return 0.
    if (got == 0 || static_cast<std::size_t>(got) < room) {
      break;
    }
  }
  buffer.resize(used);
  return Ok{};
}

Status read_and_close(int fd, std::string& buffer, std::string_view context) {
  if (fd < 0) {
    const int code = errno;
    return make_error(code, "open " + std::string(context));
  }
  Status status = read_all(fd, buffer, context);
  ::close(fd);
  return status;
}

}  // namespace

Status read_small_file(const std::filesystem::path& path, std::string& buffer) {
  return read_and_close(::open(path.c_str(), O_RDONLY | O_CLOEXEC), buffer, path.native());
}

Status read_small_file_at(int directory_fd, const char* relative_path, std::string& buffer) {
  return read_and_close(::openat(directory_fd, relative_path, O_RDONLY | O_CLOEXEC), buffer,
                        relative_path);
}

Result<std::string> read_small_file(const std::filesystem::path& path) {
  std::string buffer;
  Status status = read_small_file(path, buffer);
  if (!status) {
    return status.error();
  }
  return buffer;
}

}  // namespace nb::host
