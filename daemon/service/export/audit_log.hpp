#pragma once
// The writer of `[export] audit_log` (line format and rotation in daemon/codec/audit_log.hpp).
// Lines are appended, so the log survives restarts; each line is one write(2), so a crash tears
// at most the last one, and the first append after a restart starts on a fresh line so the torn
// one stays a line of its own that readers skip. A short write (full disk) is truncated away so
// the next entry starts a whole line. A write failure is counted, logged once per change of error
// and never stops the daemon.

#include <sys/types.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>

#include "base/file_descriptor.hpp"
#include "base/result.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/export/failure_log.hpp"

namespace nb::service {

class AuditLog {
 public:
  AuditLog() = default;
  AuditLog(const AuditLog&) = delete;
  AuditLog& operator=(const AuditLog&) = delete;

  // Appends to `config.audit_log` (empty: off). The file moves to FILE.1 first when this line
  // would take it past audit_log_max_bytes. A changed path (reload) or a file renamed away (by
  // logrotate) is reopened.
  void append(const config::ExportConfig& config, const nlohmann::json& entry);
  // The entry is built only when the audit log is on.
  void append(const config::ExportConfig& config, const std::function<nlohmann::json()>& entry);
  const std::optional<std::string>& current_error() const { return failures_.current_error(); }
  std::uint64_t failed_entries() const { return failed_entries_; }

 private:
  Status write(const config::ExportConfig& config, const std::string& line);
  Status open(const std::filesystem::path& path);
  bool still_at_path() const;

  FileDescriptor fd_;
  std::filesystem::path path_;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  FailureLog failures_{"audit log"};
  std::uint64_t failed_entries_ = 0;
};

}  // namespace nb::service
