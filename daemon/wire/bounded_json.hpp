#pragma once
// JSON that comes from a peer (an admin request) or from another program (the `file` metrics
// provider) is parsed with a nesting limit. nlohmann::json copies, compares and dumps values
// recursively, so a document nested tens of thousands of levels deep, a few hundred kilobytes of
// brackets, would overflow the stack of whoever touches it after the parse.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace nb::wire {

// Deeper than any document the daemon reads (a snapshot is 4 levels deep) by a wide margin.
inline constexpr int kMaxJsonDepth = 32;

enum class JsonProblem { none, invalid, too_deep };

struct BoundedJson {
  nlohmann::json value;  // discarded unless problem is none
  JsonProblem problem = JsonProblem::none;
  // invalid: the parser's account, "parse error at line 1, column 9: syntax error while ...".
  std::string error;
};

// Parses `text`; an array or object nested more than `max_depth` levels deep ("[[1]]" is 2) is
// too_deep, and the parse builds none of it.
BoundedJson parse_bounded_json(std::string_view text, int max_depth = kMaxJsonDepth);

// "the document is not valid JSON" or "the document nests deeper than 32 levels", for `what`.
std::string describe(JsonProblem problem, std::string_view what, int max_depth = kMaxJsonDepth);

}  // namespace nb::wire
