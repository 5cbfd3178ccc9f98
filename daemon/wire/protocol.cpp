#include "daemon/wire/protocol.hpp"

#include <array>
#include <utility>

#include "daemon/wire/bounded_json.hpp"

namespace nb::wire {

namespace {

constexpr std::array<std::pair<ErrorCode, std::string_view>, 8> kErrorNames{{
    {ErrorCode::bad_request, "bad_request"},
    {ErrorCode::too_large, "too_large"},
    {ErrorCode::unknown_command, "unknown_command"},
    {ErrorCode::forbidden, "forbidden"},
    {ErrorCode::busy, "busy"},
    {ErrorCode::failed, "failed"},
    {ErrorCode::unavailable, "unavailable"},
    {ErrorCode::reply_too_large, "reply_too_large"},
}};

}  // namespace

std::string_view to_string(ErrorCode code) {
  for (const auto& [value, name] : kErrorNames) {
    if (value == code) {
      return name;
    }
  }
  return "failed";
}

std::optional<ErrorCode> error_code_from_string(std::string_view text) {
  for (const auto& [value, name] : kErrorNames) {
    if (name == text) {
      return value;
    }
  }
  return std::nullopt;
}

Response success(nlohmann::json id, nlohmann::json result) {
  return Response{std::move(id), std::move(result), std::nullopt};
}

Response failure(nlohmann::json id, ErrorCode code, std::string message) {
  return Response{std::move(id), nullptr, ErrorReply{code, std::move(message)}};
}

std::variant<Request, Response> parse_request(std::string_view line) {
  BoundedJson bounded = parse_bounded_json(line);
  if (bounded.problem != JsonProblem::none) {
    return failure(nullptr, ErrorCode::bad_request, describe(bounded.problem, "the request"));
  }
  nlohmann::json& parsed = bounded.value;
  if (!parsed.is_object()) {
    return failure(nullptr, ErrorCode::bad_request, "the request must be a JSON object");
  }
  Request request;
  if (auto id = parsed.find("id"); id != parsed.end()) {
    if (!id->is_number_integer() && !id->is_string() && !id->is_null()) {
      return failure(nullptr, ErrorCode::bad_request, "\"id\" must be an integer or a string");
    }
    request.id = *id;
  }
  auto cmd = parsed.find("cmd");
  if (cmd == parsed.end() || !cmd->is_string() || cmd->get_ref<const std::string&>().empty()) {
    return failure(request.id, ErrorCode::bad_request, "\"cmd\" must be a non-empty string");
  }
  request.cmd = cmd->get<std::string>();
  if (auto args = parsed.find("args"); args != parsed.end() && !args->is_null()) {
    if (!args->is_object()) {
      return failure(request.id, ErrorCode::bad_request, "\"args\" must be an object");
    }
    request.args = std::move(*args);
  }
  return request;
}

std::string to_line(const Request& request) {
  nlohmann::json out{{"id", request.id}, {"cmd", request.cmd}, {"args", request.args}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string to_line(const Response& response) {
  nlohmann::json out{{"id", response.id}, {"ok", response.ok()}};
  if (response.error) {
    out["error"] = {{"code", to_string(response.error->code)},
                    {"message", response.error->message}};
  } else {
    out["result"] = response.result;
  }
  // Replace rather than throw: a cgroup name with invalid UTF-8 must not take the daemon down.
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

std::string to_line(const Event& event) {
  nlohmann::json out{{"event", event.kind}, {"time", event.time}, {"data", event.data}};
  return out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

Result<ServerLine> parse_server_line(std::string_view line) try {
  auto parsed = nlohmann::json::parse(line, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return make_error(0, "the daemon sent a line that is not a JSON object");
  }
  if (auto kind = parsed.find("event"); kind != parsed.end() && kind->is_string()) {
    Event event;
    event.kind = kind->get<std::string>();
    event.time = parsed.value("time", std::string());
    event.data = parsed.value("data", nlohmann::json());
    return ServerLine{std::move(event)};
  }
  auto ok = parsed.find("ok");
  if (ok == parsed.end() || !ok->is_boolean()) {
    return make_error(0, "the daemon's response has no boolean \"ok\"");
  }
  nlohmann::json id = parsed.value("id", nlohmann::json());
  if (ok->get<bool>()) {
    return ServerLine{success(std::move(id), parsed.value("result", nlohmann::json()))};
  }
  auto error = parsed.value("error", nlohmann::json::object());
  std::string code_text = error.is_object() ? error.value("code", std::string("failed")) : "failed";
  std::string message = error.is_object() ? error.value("message", std::string()) : "";
  auto code = error_code_from_string(code_text).value_or(ErrorCode::failed);
  return ServerLine{failure(std::move(id), code, std::move(message))};
} catch (const nlohmann::json::exception& e) {
  return make_error(0, std::string("the daemon sent a malformed line: ") + e.what());
}

}  // namespace nb::wire
