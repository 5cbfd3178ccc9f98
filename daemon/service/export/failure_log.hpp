#pragma once
// A side task that runs every round (an export) and may keep failing the same way: its error is
// logged when it first appears or changes, and once more when the task works again, so that a
// path that stays unwritable shows up once in the journal rather than every interval.

#include <optional>
#include <string>

#include "base/result.hpp"

namespace nb::service {

class FailureLog {
 public:
  explicit FailureLog(std::string task) : task_(std::move(task)) {}

  // Returns true when this outcome was logged.
  bool note(const Status& outcome);
  // The error of the latest outcome; nothing when it succeeded.
  const std::optional<std::string>& current_error() const { return last_error_; }

 private:
  std::string task_;
  std::optional<std::string> last_error_;
};

}  // namespace nb::service
