// A snapshot document through the whole of `numabalancerd plan`: the codec, the policy
// overrides, core::decide with its explanation, and the decision back to JSON. What the codec
// accepts must survive its own round trip, and so must the decision.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "core/decide.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const nb::TimePoint default_time{std::chrono::seconds(1796205600)};  // 2026-12-02T10:00:00Z
  auto document = nb::codec::parse_snapshot(nb::fuzz::as_text(data, size), default_time);
  if (!document.ok()) {
    return 0;
  }
  auto again = nb::codec::parse_snapshot(nb::codec::to_json(*document).dump(), default_time);
  if (!again.ok()) {
    std::abort();
  }
  auto policy = nb::codec::apply_policy_overrides({}, document->policy_overrides);
  if (!policy.ok()) {
    return 0;
  }
  nb::core::DecideOptions options;
  options.explain = true;
  auto decision = nb::core::decide(document->snapshot, *policy, document->history,
                                   document->snapshot.time, options);
  auto json = nb::codec::to_json(decision, nb::codec::ExplanationField::include);
  (void)nb::codec::format_explanation(decision);
  if (!nb::codec::decision_from_json(json).ok()) {
    std::abort();
  }
  return 0;
}
