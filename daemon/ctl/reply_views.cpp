// The commands whose result is one short confirmation, or text to print as it is.

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

using nlohmann::json;

std::string format_metrics(const json& result) {
  return cell_text(result.value("text", json("")));
}

std::string format_paused(const json& result) {
  return result.value("paused", false) ? "paused\n" : "resumed\n";
}

std::string format_dry_run(const json& result) {
  return result.value("dry_run", false) ? "dry-run on\n" : "dry-run off\n";
}

std::string format_cancel(const json& result) {
  return "cancelling job " + cell_text(field(result, "job")) + "\n";
}

std::string format_reload(const json& result) {
  std::string out = "configuration reloaded\n";
  for (const auto& key : result.value("restart_needed", json::array())) {
    out += "  " + cell_text(key) + " changed: takes effect after a restart\n";
  }
  return out;
}

}  // namespace nb::ctl
