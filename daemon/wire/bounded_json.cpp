#include "daemon/wire/bounded_json.hpp"

namespace nb::wire {
namespace {

// "[json.exception.parse_error.101] parse error at ..." -> "parse error at ...". The parser also
// throws out_of_range for a number too large for a double ("1e999").
std::string without_exception_id(std::string_view what) {
  if (what.starts_with('[')) {
    auto end = what.find("] ");
    if (end != std::string_view::npos) {
      what.remove_prefix(end + 2);
    }
  }
  return std::string(what);
}

}  // namespace

BoundedJson parse_bounded_json(std::string_view text, int max_depth) {
  using Event = nlohmann::json::parse_event_t;
  bool too_deep = false;
  // The callback's depth counts the containers around the event; a container that starts at
  // depth max_depth would be level max_depth + 1. Refusing it keeps the parser from building it.
  auto within_depth = [&](int depth, Event event, nlohmann::json&) {
    if ((event == Event::object_start || event == Event::array_start) && depth >= max_depth) {
      too_deep = true;
    }
    return !too_deep;
  };
  BoundedJson out;
  try {
    out.value = nlohmann::json::parse(text, within_depth);
  } catch (const nlohmann::json::exception& error) {
    out.value = nlohmann::json(nlohmann::json::value_t::discarded);
    out.error = without_exception_id(error.what());
  }
  if (too_deep) {
    out.value = nlohmann::json(nlohmann::json::value_t::discarded);
    out.problem = JsonProblem::too_deep;
  } else if (out.value.is_discarded()) {
    out.problem = JsonProblem::invalid;
  }
  return out;
}

std::string describe(JsonProblem problem, std::string_view what, int max_depth) {
  switch (problem) {
    case JsonProblem::none:
      return std::string(what) + " is valid JSON";
    case JsonProblem::invalid:
      return std::string(what) + " is not valid JSON";
    case JsonProblem::too_deep:
      return std::string(what) + " nests deeper than " + std::to_string(max_depth) + " levels";
  }
  return std::string(what) + " is not valid JSON";
}

}  // namespace nb::wire
