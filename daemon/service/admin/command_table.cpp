#include "daemon/service/admin/command_table.hpp"

#include <exception>
#include <stdexcept>
#include <utility>

namespace nb::service {

CommandTable::CommandTable() {
  add("list_commands", "List the commands with their help and whether they change state",
      Access::read_only,
      [this](const nlohmann::json&, CommandContext&) -> CommandOutcome { return describe(); });
}

void CommandTable::add(std::string name, std::string help, Access access, CommandHandler handler) {
  commands_[std::move(name)] = Entry{std::move(help), access, std::move(handler)};
}

wire::Response CommandTable::dispatch(const wire::Request& request, CommandContext& context) const {
  auto it = commands_.find(request.cmd);
  if (it == commands_.end()) {
    return wire::failure(request.id, wire::ErrorCode::unknown_command,
                         "unknown command \"" + request.cmd + "\" (try list_commands)");
  }
  const Entry& entry = it->second;
  if (entry.access == Access::mutating && !context.caller_is_admin) {
    return wire::failure(request.id, wire::ErrorCode::forbidden,
                         "\"" + request.cmd +
                             "\" changes the daemon's state: only root or members of the "
                             "admin group may run it");
  }
  try {
    CommandOutcome outcome = entry.handler(request.args, context);
    if (auto* error = std::get_if<wire::ErrorReply>(&outcome)) {
      return wire::failure(request.id, error->code, std::move(error->message));
    }
    return wire::success(request.id, std::move(std::get<nlohmann::json>(outcome)));
  } catch (const nlohmann::json::exception& e) {
    // Handlers check their arguments and answer ArgumentError; this only catches a check a
    // handler forgot, which the caller's arguments still caused.
    return wire::failure(request.id, wire::ErrorCode::bad_request,
                         std::string("bad arguments: ") + e.what());
  } catch (const std::exception& e) {
    return wire::failure(request.id, wire::ErrorCode::failed, e.what());
  }
}

wire::Response CommandTable::handle_line(std::string_view line, CommandContext& context) const {
  auto parsed = wire::parse_request(line);
  if (auto* error = std::get_if<wire::Response>(&parsed)) {
    return std::move(*error);
  }
  return dispatch(std::get<wire::Request>(parsed), context);
}

bool CommandTable::contains(std::string_view name) const {
  return commands_.find(name) != commands_.end();
}

nlohmann::json CommandTable::describe() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& [name, entry] : commands_) {
    list.push_back(
        {{"name", name}, {"help", entry.help}, {"mutating", entry.access == Access::mutating}});
  }
  return list;
}

wire::ErrorReply bad_request(std::string message) {
  return wire::ErrorReply{wire::ErrorCode::bad_request, std::move(message)};
}

wire::ErrorReply command_failed(std::string message) {
  return wire::ErrorReply{wire::ErrorCode::failed, std::move(message)};
}

}  // namespace nb::service
