#include "daemon/codec/round_outcome.hpp"

#include <array>

namespace nb::codec {
namespace {

constexpr std::array kStatuses = {
    RoundStatus::scanning, RoundStatus::manual,     RoundStatus::ready,       RoundStatus::idle,
    RoundStatus::cooldown, RoundStatus::no_metrics, RoundStatus::calibrating, RoundStatus::failed};

constexpr std::array kOutcomes = {
    RoundOutcome::pending,  RoundOutcome::none,      RoundOutcome::paused,  RoundOutcome::dry_run,
    RoundOutcome::deferred, RoundOutcome::reported,  RoundOutcome::started, RoundOutcome::done,
    RoundOutcome::partial,  RoundOutcome::cancelled, RoundOutcome::failed};

}  // namespace

RoundStatus round_status(core::DecisionStatus status) {
  switch (status) {
    case core::DecisionStatus::ready:
      return RoundStatus::ready;
    case core::DecisionStatus::idle:
      return RoundStatus::idle;
    case core::DecisionStatus::cooldown:
      return RoundStatus::cooldown;
    case core::DecisionStatus::no_metrics:
      return RoundStatus::no_metrics;
    case core::DecisionStatus::calibrating:
      return RoundStatus::calibrating;
    case core::DecisionStatus::failed:
      return RoundStatus::failed;
  }
  return RoundStatus::failed;
}

// The decided ones read as core::to_string(DecisionStatus) does (a test holds them equal).
std::string_view to_string(RoundStatus status) {
  switch (status) {
    case RoundStatus::scanning:
      return "scanning";
    case RoundStatus::manual:
      return "manual";
    case RoundStatus::ready:
      return "ready";
    case RoundStatus::idle:
      return "idle";
    case RoundStatus::cooldown:
      return "cooldown";
    case RoundStatus::no_metrics:
      return "no_metrics";
    case RoundStatus::calibrating:
      return "calibrating";
    case RoundStatus::failed:
      return "failed";
  }
  return "failed";
}

std::string_view to_string(RoundOutcome outcome) {
  switch (outcome) {
    case RoundOutcome::pending:
      return "pending";
    case RoundOutcome::none:
      return "none";
    case RoundOutcome::paused:
      return "paused";
    case RoundOutcome::dry_run:
      return "dry_run";
    case RoundOutcome::deferred:
      return "deferred";
    case RoundOutcome::reported:
      return "reported";
    case RoundOutcome::started:
      return "started";
    case RoundOutcome::done:
      return "done";
    case RoundOutcome::partial:
      return "partial";
    case RoundOutcome::cancelled:
      return "cancelled";
    case RoundOutcome::failed:
      return "failed";
  }
  return "failed";
}

std::optional<RoundStatus> round_status_named(std::string_view name) {
  for (RoundStatus status : kStatuses) {
    if (to_string(status) == name) {
      return status;
    }
  }
  return std::nullopt;
}

std::optional<RoundOutcome> round_outcome_named(std::string_view name) {
  if (name == "acted") {
    return RoundOutcome::done;
  }
  for (RoundOutcome outcome : kOutcomes) {
    if (to_string(outcome) == name) {
      return outcome;
    }
  }
  return std::nullopt;
}

}  // namespace nb::codec
