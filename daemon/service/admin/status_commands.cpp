// The read-only commands: what the daemon knows, as it stands on the loop thread.

#include <unistd.h>

#include <algorithm>
#include <cstdint>

#include "base/time.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/codec/scan_document.hpp"
#include "daemon/codec/snapshot_json.hpp"
#include "daemon/config/config_json.hpp"
#include "daemon/service/admin/command_args.hpp"
#include "daemon/service/admin/daemon_commands.hpp"
#include "daemon/service/admin/event_json.hpp"
#include "daemon/service/history_since.hpp"

namespace nb::service::commands {

namespace {

using nlohmann::json;

wire::ErrorReply unavailable(std::string message) {
  return wire::ErrorReply{wire::ErrorCode::unavailable, std::move(message)};
}

Bytes total_anon_bytes(const core::Container& container) {
  Bytes sum = 0;
  for (const auto& [node, bytes] : container.anon_bytes) {
    sum += bytes;
  }
  return sum;
}

json containers_json(const core::Snapshot& snapshot, std::size_t limit) {
  std::vector<const core::Container*> sorted;
  for (const auto& container : snapshot.containers) {
    sorted.push_back(&container);
  }
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto* a, const auto* b) {
    return total_anon_bytes(*a) > total_anon_bytes(*b);
  });
  json list = json::array();
  for (const auto* container : sorted) {
    if (list.size() >= limit) {
      break;
    }
    json entry = codec::to_json(*container);
    entry["total_anon_bytes"] = total_anon_bytes(*container);
    list.push_back(std::move(entry));
  }
  return {{"time", format_rfc3339(snapshot.time)},
          {"count", snapshot.containers.size()},
          {"containers", list}};
}

// A node's baseline without its id, which the topology node already carries.
json node_baseline_json(const NodeBaselines& baselines, NodeId node) {
  json baseline = baselines_json({baselines.tracker().baseline(node)}).at(0);
  baseline.erase("node");
  return baseline;
}

json topology_json(const core::Snapshot& snapshot, const NodeBaselines& baselines) {
  json nodes = json::array();
  for (const auto& node : snapshot.nodes) {
    // The snapshot's node, with every field present (null when unknown) for the table.
    json entry = codec::to_json(node);
    entry.emplace("cpus", node.cpus);
    entry.emplace("free_bytes", nullptr);
    entry.emplace("total_bytes", nullptr);
    entry["memory_only"] = node.memory_only();
    entry["baseline"] = node_baseline_json(baselines, node.id);
    nodes.push_back(std::move(entry));
  }
  json pools = json::array();
  for (const auto& pool : snapshot.pools) {
    pools.push_back(codec::to_json(pool));
  }
  return {{"time", format_rfc3339(snapshot.time)}, {"nodes", nodes}, {"pools", pools}};
}

json providers_json(const DaemonState& state) {
  json providers = json::array();
  for (const auto& provider : provider_states(state)) {
    providers.push_back({{"metric", metrics::to_string(provider.metric)},
                         {"provider", provider.provider},
                         {"up", provider.up},
                         {"unavailable_reason", provider.reason}});
  }
  return providers;
}

json decision_summary(const std::optional<core::Decision>& decision) {
  if (!decision) {
    return nullptr;
  }
  return {{"status", core::to_string(decision->status)},
          {"level", core::to_string(decision->level)},
          {"reason", decision->reason}};
}

json round_in_progress(const std::optional<rounds::RoundRecord>& scanning, TimePoint now) {
  if (!scanning) {
    return nullptr;
  }
  return {{"number", scanning->number},
          {"trigger", scanning->trigger},
          {"started", format_rfc3339(scanning->time)},
          {"elapsed_ms", std::chrono::duration<double, std::milli>(now - scanning->time).count()}};
}

}  // namespace

CommandOutcome status(DaemonView& daemon, const Args&, CommandContext&) {
  const DaemonState& state = daemon.state();
  std::uint64_t rounds = 0;
  for (const auto& [outcome, count] : state.counters.rounds) {
    rounds += count;
  }
  auto now = daemon.now();
  const RunningJob* job = daemon.job();
  return json{
      {"state", state.stopping ? "stopping" : (state.paused ? "paused" : "running")},
      {"paused", state.paused},
      {"dry_run", state.dry_run},
      {"pid", ::getpid()},
      {"started", format_rfc3339(state.started)},
      {"uptime_s", std::chrono::duration<double>(now - state.started).count()},
      {"interval_ms", state.config.daemon.interval.count()},
      {"config_file", daemon.config_file().string()},
      {"socket", state.config.admin.socket},
      {"rounds", rounds},
      {"last_round", state.last_round ? codec::to_json(*state.last_round) : json()},
      {"last_decision", decision_summary(state.last_decision)},
      {"job", job ? job_json(*job) : json()},
      {"deferred", state.engine.deferred() ? codec::to_json(*state.engine.deferred()) : json()},
      {"round_in_progress", round_in_progress(state.scanning, now)},
      {"last_job", state.last_job ? finished_job_json(*state.last_job) : json()},
      {"providers", providers_json(state)},
      {"baselines",
       baselines_json(state.baselines.of(state.last_scan ? &state.last_scan->snapshot : nullptr))},
      {"scan_error", state.last_scan_error.empty() ? json() : json(state.last_scan_error)},
      {"clients", daemon.clients()},
  };
}

CommandOutcome plan(DaemonView& daemon, const Args& args, CommandContext&) {
  auto explain = bool_arg(args, "explain");
  if (!explain) {
    return bad_request(explain.error());
  }
  const auto& decision = daemon.state().last_decision;
  if (!decision) {
    return unavailable("no round has decided yet");
  }
  const auto& last_round = daemon.state().last_round;
  bool with_reasons = explain->value_or(false);
  json result{
      {"time", last_round ? format_rfc3339(last_round->time) : ""},
      {"decision", codec::to_json(*decision, with_reasons ? codec::ExplanationField::include
                                                          : codec::ExplanationField::omit)}};
  if (with_reasons) {
    result["text"] = codec::format_explanation(*decision);
  }
  return result;
}

CommandOutcome history(DaemonView& daemon, const Args& args, CommandContext&) {
  const DaemonState& state = daemon.state();
  if (args.contains("since")) {
    return history_since(args, state.config.export_, state.engine.rounds(), daemon.now());
  }
  auto limit = limit_arg(args);
  if (!limit) {
    return bad_request(limit.error());
  }
  std::size_t kept = limit->value_or(20);
  std::size_t first = state.engine.rounds().size() > kept ? state.engine.rounds().size() - kept : 0;
  json list = json::array();
  for (std::size_t i = first; i < state.engine.rounds().size(); ++i) {
    list.push_back(history_round_json(state.engine.rounds()[i]));
  }
  return json{{"rounds", list}};
}

CommandOutcome containers(DaemonView& daemon, const Args& args, CommandContext&) {
  const auto& snapshot = daemon.state().last_scan;
  if (!snapshot) {
    return unavailable("no snapshot yet");
  }
  auto limit = limit_arg(args);
  if (!limit) {
    return bad_request(limit.error());
  }
  return containers_json(snapshot->snapshot, limit->value_or(SIZE_MAX));
}

CommandOutcome topology(DaemonView& daemon, const Args&, CommandContext&) {
  const auto& snapshot = daemon.state().last_scan;
  if (!snapshot) {
    return unavailable("no snapshot yet");
  }
  return topology_json(snapshot->snapshot, daemon.state().baselines);
}

CommandOutcome snapshot(DaemonView& daemon, const Args&, CommandContext&) {
  const DaemonState& state = daemon.state();
  if (!state.last_scan) {
    return unavailable("no snapshot yet");
  }
  return codec::to_json(
      codec::scan_document(*state.last_scan, state.last_scan_policy, state.engine.history()));
}

CommandOutcome metrics(DaemonView& daemon, const Args&, CommandContext&) {
  return json{{"content_type", "text/plain; version=0.0.4"},
              {"text", metrics_text(daemon.state(), daemon.job() != nullptr
                                                        ? std::optional(daemon.job()->progress)
                                                        : std::nullopt)}};
}

// The exec action's arguments may carry a token or a host: a read-only peer sees that a command
// is set, not what it is.
CommandOutcome config(DaemonView& daemon, const Args&, CommandContext& context) {
  json result = config::effective_config_json(daemon.state().config);
  result["file"] = daemon.config_file().string();
  auto eviction = result.find("eviction");
  if (!context.caller_is_admin && eviction != result.end() && eviction->contains("exec") &&
      !(*eviction)["exec"].empty()) {
    (*eviction)["exec"] = json::array({kHiddenForReadOnly});
  }
  return result;
}

}  // namespace nb::service::commands
