#include "daemon/service/export/command_audit.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <optional>
#include <string_view>

namespace nb::service {

namespace {

// A multi-line error (a rejected reload lists its problems) stays one journal line.
std::string on_one_line(std::string_view text) {
  std::string out;
  while (!text.empty()) {
    auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    line.remove_prefix(std::min(line.find_first_not_of(' '), line.size()));
    if (!out.empty()) {
      out += out.back() == ':' ? " " : "; ";
    }
    out += line;
    text = end == std::string_view::npos ? std::string_view{} : text.substr(end + 1);
  }
  return out;
}

std::string caller(const codec::CommandAudit& command) {
  std::optional<std::string> sender;
  if (command.uid && command.pid) {
    sender = fmt::format("uid {} pid {}", *command.uid, *command.pid);
  }
  if (command.via != "socket") {
    return "on " + command.via + (sender ? " from " + *sender : "");
  }
  return "over the admin socket by " + sender.value_or("an unknown peer");
}

}  // namespace

std::string command_log_line(const codec::CommandAudit& command) {
  std::string line = command.command;
  if (command.args.is_object() && !command.args.empty()) {
    line += " " + command.args.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  line += " " + caller(command) + ": ";
  return line + (command.error ? "failed: " + on_one_line(*command.error) : "ok");
}

void audit_command(AuditLog& log, const config::ExportConfig& config, TimePoint now,
                   const codec::CommandAudit& command) {
  if (command.error) {
    spdlog::warn("{}", command_log_line(command));
  } else {
    spdlog::info("{}", command_log_line(command));
  }
  log.append(config, codec::audit_command_entry(now, command));
}

}  // namespace nb::service
