#pragma once
// The admin protocol: newline-delimited JSON shared by numabalancerd and numabalancerctl.
//   request   {"id": 7, "cmd": "status", "args": {}}
//   response  {"id": 7, "ok": true, "result": {...}}
//   error     {"id": 7, "ok": false, "error": {"code": "bad_request", "message": "..."}}
//   event     {"event": "round", "time": "...", "data": {...}}   (after `watch`)

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "base/result.hpp"

namespace nb::wire {

enum class ErrorCode {
  bad_request,
  too_large,
  unknown_command,
  forbidden,
  busy,
  failed,
  unavailable,
  reply_too_large  // the reply would not fit the connection's output cap
};

std::string_view to_string(ErrorCode code);
std::optional<ErrorCode> error_code_from_string(std::string_view text);

struct Request {
  nlohmann::json id;  // echoed back as sent; null when the client gave none
  std::string cmd;
  nlohmann::json args = nlohmann::json::object();
};

struct ErrorReply {
  ErrorCode code = ErrorCode::failed;
  std::string message;
};

struct Response {
  nlohmann::json id;
  nlohmann::json result;            // set when ok
  std::optional<ErrorReply> error;  // set when not ok

  bool ok() const { return !error.has_value(); }
};

Response success(nlohmann::json id, nlohmann::json result);
Response failure(nlohmann::json id, ErrorCode code, std::string message);

// A line the daemon could not take as a request becomes the error response to send back.
std::variant<Request, Response> parse_request(std::string_view line);

// Serialised as one line, '\n' included.
std::string to_line(const Request& request);
std::string to_line(const Response& response);

struct Event {
  using Data = nlohmann::json;
  std::string kind;  // round, job_progress, job_done, eviction, config_reloaded
  std::string time;  // RFC 3339, see nb::format_rfc3339
  Data data;
};

std::string to_line(const Event& event);

// What a client reads: a response to its request, or (after `watch`) an event.
using ServerLine = std::variant<Response, Event>;
Result<ServerLine> parse_server_line(std::string_view line);

}  // namespace nb::wire
