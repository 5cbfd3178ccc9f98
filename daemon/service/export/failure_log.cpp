#include "daemon/service/export/failure_log.hpp"

#include <spdlog/spdlog.h>

namespace nb::service {

bool FailureLog::note(const Status& outcome) {
  if (outcome) {
    if (!last_error_) {
      return false;
    }
    last_error_.reset();
    spdlog::info("{} works again", task_);
    return true;
  }
  std::string message = outcome.error().message();
  if (last_error_ == message) {
    return false;
  }
  last_error_ = message;
  spdlog::error("{} failed: {} (logged again only when the error changes)", task_, message);
  return true;
}

}  // namespace nb::service
