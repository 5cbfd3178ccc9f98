#include "daemon/eviction/control_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace nb::eviction {

Status write_control(const std::filesystem::path& file, std::string_view value) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    return make_error(errno, "open " + file.string());
  }
  ssize_t written = ::write(fd, value.data(), value.size());
  int code = errno;
  ::close(fd);
  if (written < 0) {
    return make_error(code, "write " + file.string());
  }
  return Ok{};
}

}  // namespace nb::eviction
