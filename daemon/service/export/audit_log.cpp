#include "daemon/service/export/audit_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "daemon/codec/audit_log.hpp"
#include "daemon/wire/audit_log_reader.hpp"

namespace nb::service {

namespace {

Status write_all(int fd, std::string_view data, const std::filesystem::path& path) {
  while (!data.empty()) {
    ssize_t written = ::write(fd, data.data(), data.size());
    if (written < 0) {
      if (errno == EINTR) {
        continue;
      }
      return make_error(errno, "write " + path.string());
    }
    data.remove_prefix(static_cast<std::size_t>(written));
  }
  return Ok{};
}

}  // namespace

AuditLog::~AuditLog() {
  close();
}

void AuditLog::append(const config::ExportConfig& config, const nlohmann::json& entry) {
  if (config.audit_log.empty()) {
    close();
    return;
  }
  failures_.note(write(config, codec::to_audit_line(entry)));
}

Status AuditLog::write(const config::ExportConfig& config, const std::string& line) {
  std::filesystem::path path = config.audit_log;
  if (fd_ >= 0 && (path != path_ || !still_at_path())) {
    close();
  }
  if (fd_ < 0) {
    if (auto opened = open(path); !opened) {
      return opened;
    }
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    return make_error(errno, "stat " + path_.string());
  }
  auto size = static_cast<Bytes>(st.st_size);
  if (size > 0 && size + static_cast<Bytes>(line.size()) > config.audit_log_max_bytes) {
    auto rotated = wire::rotated_audit_log(path_);
    if (::rename(path_.c_str(), rotated.c_str()) != 0) {
      return make_error(errno, "rename " + path_.string() + " to " + rotated.string());
    }
    close();
    if (auto opened = open(path); !opened) {
      return opened;
    }
  }
  return write_all(fd_, line, path_);
}

Status AuditLog::open(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
  if (fd < 0) {
    return make_error(errno, "open " + path.string());
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int code = errno;
    ::close(fd);
    return make_error(code, "stat " + path.string());
  }
  // A crash may have left half a line without its newline; the next line must not continue it.
  if (st.st_size > 0) {
    char last = '\n';
    if (::pread(fd, &last, 1, st.st_size - 1) != 1) {
      last = '\n';
    }
    if (last != '\n') {
      if (auto written = write_all(fd, "\n", path); !written) {
        ::close(fd);
        return written;
      }
    }
  }
  fd_ = fd;
  path_ = path;
  device_ = st.st_dev;
  inode_ = st.st_ino;
  return Ok{};
}

void AuditLog::close() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
}

bool AuditLog::still_at_path() const {
  struct stat st {};
  return ::stat(path_.c_str(), &st) == 0 && st.st_dev == device_ && st.st_ino == inode_;
}

}  // namespace nb::service
