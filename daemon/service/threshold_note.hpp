#pragma once
// The guard rail of issue #15: threshold_mode = "absolute" with read latency that is not
// memory-controller queueing. It is allowed, since an operator may have tuned the *_ns thresholds
// for their provider, but it is said, in one text: the daemon logs it once per configuration
// (at start-up and after each reload) and `--check-config` prints it when the config alone tells
// which provider will answer.

#include <optional>
#include <string>
#include <string_view>

#include "core/latency_kind.hpp"
#include "core/threshold_mode.hpp"
#include "daemon/config/config.hpp"
#include "daemon/host/host_scan.hpp"

namespace nb::service {

// The note for these thresholds and latency of `kind` from `provider`; nullopt unless the mode
// is absolute and the kind is not memory_controller_queue, the kind the *_ns values were tuned for.
std::optional<std::string> threshold_note(core::ThresholdMode mode, core::LatencyKind kind,
                                          std::string_view provider);

// What --check-config says of `config`: the note when [metrics] latency names a provider whose
// kind calls for it; with latency = "auto" and absolute thresholds, that it depends on the
// provider that answers; otherwise nullopt.
std::optional<std::string> configured_threshold_note(const config::Config& config);

// Says the note once per configuration: armed when made and by rearm() (a reload), spent by the
// first scan whose latency provider answered, so that it names the provider that did.
class ThresholdWarning {
 public:
  void rearm() { armed_ = true; }
  // The note to log after this scan, if any.
  std::optional<std::string> after_scan(core::ThresholdMode mode, const host::ScanReport& report);

 private:
  bool armed_ = true;
};

}  // namespace nb::service
