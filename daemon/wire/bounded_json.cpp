#include "daemon/wire/bounded_json.hpp"

namespace nb::wire {

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
  out.value = nlohmann::json::parse(text, within_depth, /*allow_exceptions=*/false);
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
