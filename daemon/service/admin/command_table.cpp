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

codec::Response CommandTable::dispatch(const codec::Request& request,
                                       CommandContext& context) const {
  auto it = commands_.find(request.cmd);
  if (it == commands_.end()) {
    return codec::failure(request.id, codec::ErrorCode::unknown_command,
                          "unknown command \"" + request.cmd + "\" (try list_commands)");
  }
  const Entry& entry = it->second;
  if (entry.access == Access::mutating && !context.caller_is_admin) {
    return codec::failure(request.id, codec::ErrorCode::forbidden,
                          "\"" + request.cmd +
                              "\" changes the daemon's state: only root or members of the "
                              "admin group may run it");
  }
  try {
    CommandOutcome outcome = entry.handler(request.args, context);
    if (auto* error = std::get_if<codec::ErrorReply>(&outcome)) {
      return codec::failure(request.id, error->code, std::move(error->message));
    }
    return codec::success(request.id, std::move(std::get<nlohmann::json>(outcome)));
  } catch (const nlohmann::json::exception& e) {
    // Handlers read args with .at()/.get<>(): a wrong type is the caller's mistake.
    return codec::failure(request.id, codec::ErrorCode::bad_request,
                          std::string("bad arguments: ") + e.what());
  } catch (const std::invalid_argument& e) {
    return codec::failure(request.id, codec::ErrorCode::bad_request, e.what());
  } catch (const std::exception& e) {
    return codec::failure(request.id, codec::ErrorCode::failed, e.what());
  }
}

codec::Response CommandTable::handle_line(std::string_view line, CommandContext& context) const {
  auto parsed = codec::parse_request(line);
  if (auto* error = std::get_if<codec::Response>(&parsed)) {
    return std::move(*error);
  }
  return dispatch(std::get<codec::Request>(parsed), context);
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

codec::ErrorReply bad_request(std::string message) {
  return codec::ErrorReply{codec::ErrorCode::bad_request, std::move(message)};
}

codec::ErrorReply command_failed(std::string message) {
  return codec::ErrorReply{codec::ErrorCode::failed, std::move(message)};
}

}  // namespace nb::service
