#include "daemon/rounds/round_outcome.hpp"

#include "base/enum_names.hpp"

namespace nb::rounds {
namespace {

// The decided ones read as core::to_string(DecisionStatus) does (a test holds them equal), which
// is how round_status() maps one to the other.
constexpr EnumName<RoundStatus> kStatusNames[] = {{RoundStatus::scanning, "scanning"},
                                                  {RoundStatus::manual, "manual"},
                                                  {RoundStatus::ready, "ready"},
                                                  {RoundStatus::idle, "idle"},
                                                  {RoundStatus::cooldown, "cooldown"},
                                                  {RoundStatus::no_metrics, "no_metrics"},
                                                  {RoundStatus::calibrating, "calibrating"},
                                                  {RoundStatus::failed, "failed"}};

constexpr EnumName<RoundOutcome> kOutcomeNames[] = {
    {RoundOutcome::pending, "pending"},   {RoundOutcome::none, "none"},
    {RoundOutcome::paused, "paused"},     {RoundOutcome::dry_run, "dry_run"},
    {RoundOutcome::deferred, "deferred"}, {RoundOutcome::reported, "reported"},
    {RoundOutcome::started, "started"},   {RoundOutcome::done, "done"},
    {RoundOutcome::partial, "partial"},   {RoundOutcome::cancelled, "cancelled"},
    {RoundOutcome::failed, "failed"}};

static_assert(names_every_value(kStatusNames) && names_every_value(kOutcomeNames));

}  // namespace

RoundStatus round_status(core::DecisionStatus status) {
  return round_status_named(core::to_string(status)).value_or(RoundStatus::failed);
}

std::string_view to_string(RoundStatus status) {
  return name_of(kStatusNames, status, "failed");
}

std::string_view to_string(RoundOutcome outcome) {
  return name_of(kOutcomeNames, outcome, "failed");
}

std::optional<RoundStatus> round_status_named(std::string_view name) {
  return value_named(kStatusNames, name);
}

// Also reads "acted", which early state files hold for a round whose job ran, as done.
std::optional<RoundOutcome> round_outcome_named(std::string_view name) {
  if (name == "acted") {
    return RoundOutcome::done;
  }
  return value_named(kOutcomeNames, name);
}

}  // namespace nb::rounds
