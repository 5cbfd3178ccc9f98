#include "daemon/service/contained.hpp"

#include <spdlog/spdlog.h>

#include <exception>

namespace nb::service {

std::optional<std::string> run_contained(Activity during, DaemonCounters& counters,
                                         const std::function<void()>& body) {
  std::string message;
  try {
    body();
    return std::nullopt;
  } catch (const std::exception& e) {
    message = e.what();
  } catch (...) {
    message = "an exception of unknown type";
  }
  ++counters.internal_errors[during];
  spdlog::error("internal error during {}: {}; the daemon keeps serving", to_string(during),
                message);
  return message;
}

}  // namespace nb::service
