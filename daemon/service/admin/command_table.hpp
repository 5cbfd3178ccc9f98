#pragma once
// The admin commands by name, knowing nothing of sockets: the server hands it a parsed request
// and who asked, and sends back whatever reply it makes. Errors become structured replies; no
// handler's exception escapes.

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "daemon/service/admin/peer_credentials.hpp"
#include "daemon/wire/protocol.hpp"

namespace nb::service {

enum class Access { read_only, mutating };

// What a handler may ask of the connection it answers.
struct CommandContext {
  bool caller_is_admin = false;
  bool start_watching = false;  // set by `watch`: the connection then streams events
  bool caller_is_root = false;  // uid 0: may `migrate` what lies outside the configured pools
  // Who asked, as the kernel recorded it at connect(2), for the audit trail; none when the
  // credentials could not be read.
  std::optional<PeerCredentials> caller = std::nullopt;
};

using CommandOutcome = std::variant<nlohmann::json, wire::ErrorReply>;
using CommandHandler = std::function<CommandOutcome(const nlohmann::json& args, CommandContext&)>;

class CommandTable {
 public:
  CommandTable();

  // A later registration under the same name replaces the earlier one.
  void add(std::string name, std::string help, Access access, CommandHandler handler);

  wire::Response dispatch(const wire::Request& request, CommandContext& context) const;
  // Parses then dispatches: what the socket layer calls for each line.
  wire::Response handle_line(std::string_view line, CommandContext& context) const;

  bool contains(std::string_view name) const;
  nlohmann::json describe() const;  // [{name, help, mutating}], sorted by name

 private:
  struct Entry {
    std::string help;
    Access access;
    CommandHandler handler;
  };
  std::map<std::string, Entry, std::less<>> commands_;
};

// Helpers for handlers.
wire::ErrorReply bad_request(std::string message);
wire::ErrorReply command_failed(std::string message);

}  // namespace nb::service
