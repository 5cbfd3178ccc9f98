#include "daemon/rounds/round_record.hpp"

namespace nb::rounds {

std::string_view to_string(EffectResult result) {
  switch (result) {
    case EffectResult::improved:
      return "improved";
    case EffectResult::not_improved:
      return "not_improved";
    case EffectResult::unknown:
      return "unknown";
  }
  return "unknown";
}

std::optional<EffectResult> effect_result(const RoundRecord& record) {
  if (record.effect) {
    return record.effect->effect.improved ? EffectResult::improved : EffectResult::not_improved;
  }
  if (record.effect_reason.empty()) {
    return std::nullopt;
  }
  return EffectResult::unknown;
}

std::vector<std::uint64_t> keep_newest_full_reports(std::vector<RoundRecord>& rounds,
                                                    std::size_t count) {
  std::vector<std::uint64_t> cleared;
  std::size_t kept = 0;
  for (auto it = rounds.rbegin(); it != rounds.rend(); ++it) {
    if (!it->full_report) {
      continue;
    }
    if (kept < count) {
      ++kept;
    } else {
      it->full_report.reset();
      cleared.push_back(it->number);
    }
  }
  return cleared;
}

std::optional<core::Round> history_entry(const RoundRecord& record) {
  if (!record.acted()) {
    return std::nullopt;
  }
  std::optional<core::RoundEffect> effect;
  if (record.effect) {
    effect = record.effect->effect;
  }
  return core::Round{record.time,
                     record.source_node,
                     record.dest_nodes,
                     record.migrated,
                     !record.evicted.empty(),
                     effect,
                     record.effect_pending(),
                     record.moved_shares};
}

core::History to_history(const std::vector<RoundRecord>& records) {
  core::History history;
  for (const auto& record : records) {
    if (auto entry = history_entry(record)) {
      history.push_back(std::move(*entry));
    }
  }
  return history;
}

}  // namespace nb::rounds
