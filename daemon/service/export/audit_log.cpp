#include "daemon/service/export/audit_log.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

#include "daemon/codec/audit_log.hpp"
#include "daemon/wire/audit_log_reader.hpp"

namespace nb::service {

namespace {

Result<Bytes> size_of(int fd, const std::filesystem::path& path) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    return make_error(errno, "stat " + path.string());
  }
  return static_cast<Bytes>(st.st_size);
}

// One write(2) per line, so that concurrent readers and a crash see whole lines. A short write
// (a full disk, RLIMIT_FSIZE) is cut back off: left, the next entry would continue the torn line.
Status write_line(int fd, std::string_view line, off_t size_before,
                  const std::filesystem::path& path) {
  ssize_t written = 0;
  do {
    written = ::write(fd, line.data(), line.size());
  } while (written < 0 && errno == EINTR);
  if (written == static_cast<ssize_t>(line.size())) {
    return Ok{};
  }
  int code = written < 0 ? errno : ENOSPC;
  if (written > 0 && ::ftruncate(fd, size_before) != 0) {
    return make_error(errno, "truncate " + path.string() + " after a short write");
  }
  return make_error(code,
                    "write " + path.string() + (written > 0 ? " (short write, line removed)" : ""));
}

}  // namespace

void AuditLog::append(const config::ExportConfig& config, const nlohmann::json& entry) {
  append(config, [&] { return entry; });
}

void AuditLog::append(const config::ExportConfig& config,
                      const std::function<nlohmann::json()>& entry) {
  if (config.audit_log.empty()) {
    fd_.reset();
    return;
  }
  auto written = write(config, codec::to_audit_line(entry()));
  if (!written) {
    ++failed_entries_;
  }
  failures_.note(written);
}

Status AuditLog::write(const config::ExportConfig& config, const std::string& line) {
  std::filesystem::path path = config.audit_log;
  if (fd_.valid() && (path != path_ || !still_at_path())) {
    fd_.reset();
  }
  if (!fd_.valid()) {
    if (auto opened = open(path); !opened) {
      return opened;
    }
  }
  auto size = size_of(fd_.get(), path_);
  if (!size) {
    return size.error();
  }
  if (*size > 0 && *size + static_cast<Bytes>(line.size()) > config.audit_log_max_bytes) {
    auto rotated = wire::rotated_audit_log(path_);
    if (::rename(path_.c_str(), rotated.c_str()) != 0) {
      return make_error(errno, "rename " + path_.string() + " to " + rotated.string());
    }
    fd_.reset();
    if (auto opened = open(path); !opened) {
      return opened;
    }
    size = size_of(fd_.get(), path_);
    if (!size) {
      return size.error();
    }
  }
  return write_line(fd_.get(), line, static_cast<off_t>(*size), path_);
}

Status AuditLog::open(const std::filesystem::path& path) {
  FileDescriptor fd(::open(path.c_str(), O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0640));
  if (!fd.valid()) {
    return make_error(errno, "open " + path.string());
  }
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) {
    return make_error(errno, "stat " + path.string());
  }
  // A crash may have left half a line without its newline; the next line must not continue it.
  if (st.st_size > 0) {
    char last = '\n';
    if (::pread(fd.get(), &last, 1, st.st_size - 1) != 1) {
      last = '\n';
    }
    if (last != '\n') {
      if (auto written = write_line(fd.get(), "\n", st.st_size, path); !written) {
        return written;
      }
    }
  }
  fd_ = std::move(fd);
  path_ = path;
  device_ = st.st_dev;
  inode_ = st.st_ino;
  return Ok{};
}

bool AuditLog::still_at_path() const {
  struct stat st {};
  return ::stat(path_.c_str(), &st) == 0 && st.st_dev == device_ && st.st_ino == inode_;
}

}  // namespace nb::service
