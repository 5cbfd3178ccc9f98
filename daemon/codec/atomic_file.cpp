#include "daemon/codec/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace nb::codec {

namespace {

Status write_all(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(errno, "write " + path);
    }
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return Ok{};
}

}  // namespace

Status write_file_atomically(const std::filesystem::path& file, std::string_view content) {
  auto dir = file.parent_path().empty() ? std::filesystem::path(".") : file.parent_path();
  // A dot name with a suffix that is not ".prom": the textfile collector ignores it mid-write,
  // and a unique name keeps two writers from sharing one temp file.
  std::string temp = (dir / ("." + file.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    return make_error(errno, "create a temp file in " + dir.string());
  }
  // Errors name the file being replaced, not the random temp name, so that the same failure
  // reads the same every round and is logged once.
  const std::string what = "the temp file for " + file.string();
  Status written = Ok{};
  if (::fchmod(fd, 0644) != 0) {
    written = make_error(errno, "chmod " + what);
  }
  if (written) {
    written = write_all(fd, content, what);
  }
  if (written && ::fsync(fd) != 0) {
    written = make_error(errno, "fsync " + what);
  }
  ::close(fd);
  if (written && ::rename(temp.c_str(), file.c_str()) != 0) {
    written = make_error(errno, "rename " + what + " onto it");
  }
  if (!written) {
    ::unlink(temp.c_str());
    return written;
  }
  int dir_fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd >= 0) {
    ::fsync(dir_fd);
    ::close(dir_fd);
  }
  return Ok{};
}

}  // namespace nb::codec
