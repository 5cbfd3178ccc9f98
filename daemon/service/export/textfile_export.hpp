#pragma once
// `[export] textfile`: the metrics text, rewritten atomically each round for node_exporter's
// textfile collector (point its --collector.textfile.directory at the file's directory and name
// the file *.prom). A failure is logged once per change of error and never stops the daemon.

#include <filesystem>
#include <string_view>

#include "base/result.hpp"
#include "daemon/service/export/failure_log.hpp"

namespace nb::service {

class TextfileExport {
 public:
  // An empty path turns the export off.
  void write(const std::filesystem::path& path, std::string_view text);
  const std::optional<std::string>& current_error() const { return failures_.current_error(); }

 private:
  FailureLog failures_{"textfile export"};
};

}  // namespace nb::service
