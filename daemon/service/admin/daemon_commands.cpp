// The admin commands of the running daemon. They run on the loop thread, so they read and change
// the daemon's state directly.

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <stdexcept>

#include "base/parse_units.hpp"
#include "daemon/codec/decision_json.hpp"
#include "daemon/codec/explain.hpp"
#include "daemon/config/config_json.hpp"
#include "daemon/config/logging.hpp"
#include "daemon/service/daemon.hpp"
#include "daemon/service/daemon_job.hpp"
#include "daemon/service/history_since.hpp"
#include "daemon/service/report_summary.hpp"

namespace nb::service {

namespace {

using nlohmann::json;

codec::ErrorReply unavailable(std::string message) {
  return codec::ErrorReply{codec::ErrorCode::unavailable, std::move(message)};
}

// Arguments are checked before anything happens, so that a bad request changes nothing.
std::optional<bool> bool_arg(const json& args, const char* name) {
  auto it = args.find(name);
  if (it == args.end() || it->is_null()) {
    return std::nullopt;
  }
  if (!it->is_boolean()) {
    throw std::invalid_argument(std::string("\"") + name + "\" must be true or false");
  }
  return it->get<bool>();
}

Result<std::vector<NodeId>> node_list(const json& value) {
  std::vector<NodeId> nodes;
  auto add = [&](long long node) -> bool {
    if (node < 0 || node > 4095) {
      return false;
    }
    nodes.push_back(static_cast<NodeId>(node));
    return true;
  };
  if (value.is_number_integer()) {
    if (!add(value.get<long long>())) {
      return make_error(0, "\"to\": node out of range");
    }
  } else if (value.is_array()) {
    for (const auto& item : value) {
      if (!item.is_number_integer() || !add(item.get<long long>())) {
        return make_error(0, "\"to\" must list node numbers");
      }
    }
  } else if (value.is_string()) {
    std::string text = value.get<std::string>();
    std::size_t start = 0;
    while (start <= text.size()) {
      auto comma = text.find(',', start);
      auto piece =
          text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      char* end = nullptr;
      long long node = std::strtoll(piece.c_str(), &end, 10);
      if (piece.empty() || *end != '\0' || !add(node)) {
        return make_error(0, "\"to\": \"" + text + "\" is not a list of node numbers");
      }
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  } else {
    return make_error(0, "\"to\" must be a node, a list of nodes or \"1,2\"");
  }
  if (nodes.empty()) {
    return make_error(0, "\"to\" names no node");
  }
  return nodes;
}

json containers_json(const core::Snapshot& snapshot, std::size_t limit) {
  std::vector<const core::Container*> sorted;
  for (const auto& container : snapshot.containers) {
    sorted.push_back(&container);
  }
  auto total = [](const core::Container* c) {
    Bytes sum = 0;
    for (const auto& [node, bytes] : c->anon_bytes) {
      sum += bytes;
    }
    return sum;
  };
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const auto* a, const auto* b) { return total(a) > total(b); });
  json list = json::array();
  for (const auto* container : sorted) {
    if (list.size() >= limit) {
      break;
    }
    json anon = json::object();
    for (const auto& [node, bytes] : container->anon_bytes) {
      anon[std::to_string(node)] = bytes;
    }
    list.push_back({{"id", container->id},
                    {"pool", container->pool},
                    {"anon_bytes", anon},
                    {"total_anon_bytes", total(container)}});
  }
  return {{"time", codec::format_time(snapshot.time)},
          {"count", snapshot.containers.size()},
          {"containers", list}};
}

json topology_json(const core::Snapshot& snapshot) {
  json nodes = json::array();
  for (const auto& node : snapshot.nodes) {
    json distance = json::object();
    for (const auto& [other, value] : node.distance) {
      distance[std::to_string(other)] = value;
    }
    nodes.push_back(
        {{"id", node.id},
         {"cpus", node.cpus},
         {"memory_only", node.memory_only()},
         {"distance", distance},
         {"free_bytes", node.free_bytes ? json(*node.free_bytes) : json()},
         {"total_bytes", node.total_bytes ? json(*node.total_bytes) : json()},
         {"read_latency_ns", node.read_latency_ns ? json(*node.read_latency_ns) : json()},
         {"bandwidth_gbps", node.bandwidth_gbps ? json(*node.bandwidth_gbps) : json()}});
  }
  json pools = json::array();
  for (const auto& pool : snapshot.pools) {
    pools.push_back({{"name", pool.name}, {"nodes", pool.nodes}});
  }
  return {{"time", codec::format_time(snapshot.time)}, {"nodes", nodes}, {"pools", pools}};
}

}  // namespace

std::vector<ProviderState> Daemon::provider_states() const {
  std::vector<ProviderState> states;
  if (!last_snapshot_) {
    return states;
  }
  const auto& snapshot = last_snapshot_->snapshot;
  const json& meta = last_snapshot_->meta;
  auto describe = [&](const char* metric, bool any_value) {
    ProviderState state{metric, "", any_value, ""};
    // The host scanner says which provider answered under meta.metrics.<metric>.
    if (auto metrics = meta.find("metrics"); metrics != meta.end() && metrics->is_object()) {
      if (auto entry = metrics->find(metric); entry != metrics->end() && entry->is_object()) {
        if (auto provider = entry->find("provider");
            provider != entry->end() && provider->is_string()) {
          state.provider = provider->get<std::string>();
        }
        if (auto available = entry->find("available");
            available != entry->end() && available->is_boolean()) {
          state.up = available->get<bool>();
        }
        if (auto reason = entry->find("unavailable_reason");
            reason != entry->end() && reason->is_string()) {
          state.reason = reason->get<std::string>();
        }
      }
    }
    states.push_back(std::move(state));
  };
  describe("read_latency",
           std::any_of(snapshot.nodes.begin(), snapshot.nodes.end(),
                       [](const auto& n) { return n.read_latency_ns.has_value(); }));
  describe("bandwidth", std::any_of(snapshot.nodes.begin(), snapshot.nodes.end(),
                                    [](const auto& n) { return n.bandwidth_gbps.has_value(); }));
  return states;
}

// The `metrics` command and the textfile export carry this same text.
std::string Daemon::metrics_text() const {
  MetricsView view;
  view.snapshot = last_snapshot_ ? &last_snapshot_->snapshot : nullptr;
  view.decision = last_decision_ ? &*last_decision_ : nullptr;
  view.providers = provider_states();
  view.counters = &counters_;
  view.log_messages_dropped = config::dropped_log_messages();
  return render_prometheus(view);
}

json Daemon::job_json() const {
  if (!job_) {
    return nullptr;
  }
  return {{"id", job_->id},
          {"kind", job_->kind},
          {"round", job_->round_number},
          {"started", codec::format_time(job_->started)},
          {"source_node", job_->source_node},
          {"dest_nodes", job_->dest_nodes},
          {"budget", job_->budget},
          {"dry_run", job_->dry_run},
          {"cancel_requested", job_->cancel.load()},
          {"progress", progress_json(job_->progress)}};
}

json Daemon::status_json() const {
  json providers = json::array();
  for (const auto& state : provider_states()) {
    providers.push_back({{"metric", state.metric},
                         {"provider", state.provider},
                         {"up", state.up},
                         {"unavailable_reason", state.reason}});
  }
  std::uint64_t rounds = 0;
  for (const auto& [outcome, count] : counters_.rounds) {
    rounds += count;
  }
  json decision = nullptr;
  if (last_decision_) {
    decision = {{"status", core::to_string(last_decision_->status)},
                {"level", core::to_string(last_decision_->level)},
                {"reason", last_decision_->reason}};
  }
  auto now = seams_.clock();
  json round_in_progress = nullptr;
  if (scanning_) {
    round_in_progress = {
        {"number", scanning_->number},
        {"trigger", scanning_->trigger},
        {"started", codec::format_time(scanning_->time)},
        {"elapsed_ms", std::chrono::duration<double, std::milli>(now - scanning_->time).count()}};
  }
  return {
      {"state", stopping_ ? "stopping" : (paused_ ? "paused" : "running")},
      {"paused", paused_},
      {"dry_run", dry_run_},
      {"pid", ::getpid()},
      {"started", codec::format_time(started_)},
      {"uptime_s", std::chrono::duration<double>(now - started_).count()},
      {"interval_ms", config_.daemon.interval.count()},
      {"config_file", options_.config_file.string()},
      {"socket", config_.admin.socket},
      {"rounds", rounds},
      {"last_round", last_round_ ? codec::to_json(*last_round_) : json()},
      {"last_decision", decision},
      {"job", job_json()},
      {"deferred", deferred_ ? codec::to_json(*deferred_) : json()},
      {"round_in_progress", round_in_progress},
      {"last_job", last_job_},
      {"providers", providers},
      {"scan_error", last_scan_error_.empty() ? json() : json(last_scan_error_)},
      {"clients", server_ ? server_->connections() : 0},
  };
}

CommandOutcome Daemon::manual_migrate(const json& args) {
  if (stopping_) {
    return codec::ErrorReply{codec::ErrorCode::busy, "the daemon is stopping"};
  }
  if (job_) {
    return codec::ErrorReply{codec::ErrorCode::busy, "job " + std::to_string(job_->id) +
                                                         " is running; wait for it or `cancel` it"};
  }
  bool has_cgroup = args.contains("cgroup") && !args["cgroup"].is_null();
  bool has_pid = args.contains("pid") && !args["pid"].is_null();
  if (has_cgroup == has_pid) {
    return bad_request("give exactly one of \"cgroup\" and \"pid\"");
  }
  if (!args.contains("from") || !args["from"].is_number_integer()) {
    return bad_request("\"from\" (the source node) is required and must be a node number");
  }
  NodeId source = args["from"].get<NodeId>();
  if (!args.contains("to")) {
    return bad_request("\"to\" (the destination nodes) is required");
  }
  auto dests = node_list(args["to"]);
  if (!dests) {
    return bad_request(dests.error().message());
  }
  if (std::find(dests->begin(), dests->end(), source) != dests->end()) {
    return bad_request("the source node " + std::to_string(source) + " is also a destination");
  }
  if (last_snapshot_) {
    auto known = [&](NodeId id) {
      const auto& nodes = last_snapshot_->snapshot.nodes;
      return std::any_of(nodes.begin(), nodes.end(), [&](const auto& n) { return n.id == id; });
    };
    for (NodeId node : *dests) {
      if (!known(node)) {
        return bad_request("unknown node " + std::to_string(node));
      }
    }
    if (!known(source)) {
      return bad_request("unknown node " + std::to_string(source));
    }
  }
  auto options = job_options();
  options.source_node = source;
  if (auto max = args.find("max_bytes"); max != args.end() && !max->is_null()) {
    if (max->is_number_integer() && max->get<long long>() > 0) {
      options.budget = max->get<Bytes>();
    } else if (max->is_string()) {
      auto parsed = parse_size(max->get<std::string>());
      if (!parsed || parsed.value() <= 0) {
        return bad_request("\"max_bytes\": " +
                           (parsed ? std::string("must be positive") : parsed.error().message()));
      }
      options.budget = parsed.value();
    } else {
      return bad_request("\"max_bytes\" must be a positive number of bytes or a size (\"512MiB\")");
    }
  }
  if (auto rate = args.find("rate"); rate != args.end() && !rate->is_null()) {
    if (!rate->is_number() || rate->get<double>() < 0) {
      return bad_request("\"rate\" must be a number of MiB/s, 0 for unlimited");
    }
    options.rate_limit_mib_per_s = rate->get<double>();
  }
  options.dry_run = bool_arg(args, "dry_run").value_or(false);

  actuator::MigrationTarget target;
  target.dest_nodes = dests.value();
  if (has_cgroup) {
    if (!args["cgroup"].is_string() || args["cgroup"].get<std::string>().empty()) {
      return bad_request("\"cgroup\" must be a cgroup path");
    }
    std::string cgroup = args["cgroup"].get<std::string>();
    std::filesystem::path dir = cgroup.front() == '/' && std::filesystem::exists(cgroup)
                                    ? std::filesystem::path(cgroup)
                                    : seams_.container_dir(cgroup);
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
      return bad_request("no cgroup at " + dir.string());
    }
    target.container_id = cgroup;
    target.cgroup_dir = dir;
  } else {
    if (!args["pid"].is_number_integer() || args["pid"].get<long long>() <= 0) {
      return bad_request("\"pid\" must be a positive process id");
    }
    int pid = args["pid"].get<int>();
    std::error_code error;
    if (!std::filesystem::exists(options_.proc_root / std::to_string(pid), error)) {
      return bad_request("no process " + std::to_string(pid));
    }
    target.pid = pid;
    target.container_id = "pid " + std::to_string(pid);
  }

  codec::RoundRecord record;
  record.number = next_round_number_++;
  record.time = seams_.clock();
  record.trigger = "manual";
  record.status = "manual";
  record.outcome = "started";
  record.source_node = source;
  record.dest_nodes = target.dest_nodes;
  record.containers = {target.container_id};
  record.planned_bytes = options.budget == actuator::kUnlimitedBudget ? 0 : options.budget;
  remember(record);
  save();

  auto job = std::make_unique<Job>();
  job->kind = "manual";
  job->round_number = record.number;
  job->source_node = source;
  job->dest_nodes = target.dest_nodes;
  job->budget = record.planned_bytes;
  start_job(std::move(job), {target}, options, {});
  return json{{"job", job_->id}, {"round", record.number}, {"dry_run", options.dry_run}};
}

void Daemon::register_commands() {
  auto& table = commands_;
  table.add("status",
            "Running, paused or dry-run; the last round; the current job's progress; provider "
            "health",
            Access::read_only,
            [this](const json&, CommandContext&) -> CommandOutcome { return status_json(); });
  table.add("plan", "The latest decision; {\"explain\": true} adds the reasoning",
            Access::read_only, [this](const json& args, CommandContext&) -> CommandOutcome {
              bool explain = bool_arg(args, "explain").value_or(false);
              if (!last_decision_) {
                return unavailable("no round has decided yet");
              }
              json result{{"time", last_round_ ? codec::format_time(last_round_->time) : ""},
                          {"decision", codec::to_json(*last_decision_,
                                                      explain ? codec::ExplanationField::include
                                                              : codec::ExplanationField::omit)}};
              if (explain) {
                result["text"] = codec::format_explanation(*last_decision_);
              }
              return result;
            });
  table.add("history",
            "The last rounds that decided something, with their migration reports "
            "({\"limit\": N}, default 20); {\"since\": \"2h\" | TIME} reads the audit log",
            Access::read_only, [this](const json& args, CommandContext&) -> CommandOutcome {
              if (args.contains("since")) {
                return history_since(args, config_.export_, rounds_, seams_.clock());
              }
              long long limit = 20;
              if (auto it = args.find("limit"); it != args.end() && !it->is_null()) {
                if (!it->is_number_integer() || it->get<long long>() <= 0) {
                  return bad_request("\"limit\" must be a positive integer");
                }
                limit = it->get<long long>();
              }
              json list = json::array();
              std::size_t first = rounds_.size() > static_cast<std::size_t>(limit)
                                      ? rounds_.size() - static_cast<std::size_t>(limit)
                                      : 0;
              for (std::size_t i = first; i < rounds_.size(); ++i) {
                list.push_back(codec::to_json(rounds_[i]));
              }
              return json{{"rounds", list}};
            });
  table.add("containers", "The watched containers, largest first ({\"limit\": N})",
            Access::read_only, [this](const json& args, CommandContext&) -> CommandOutcome {
              if (!last_snapshot_) {
                return unavailable("no snapshot yet");
              }
              std::size_t limit = SIZE_MAX;
              if (auto it = args.find("limit"); it != args.end() && !it->is_null()) {
                if (!it->is_number_integer() || it->get<long long>() <= 0) {
                  return bad_request("\"limit\" must be a positive integer");
                }
                limit = it->get<std::size_t>();
              }
              return containers_json(last_snapshot_->snapshot, limit);
            });
  table.add("topology", "Nodes (CPUs, distances, memory, latest metrics) and pools",
            Access::read_only, [this](const json&, CommandContext&) -> CommandOutcome {
              if (!last_snapshot_) {
                return unavailable("no snapshot yet");
              }
              return topology_json(last_snapshot_->snapshot);
            });
  table.add("snapshot",
            "The latest snapshot document, with the daemon's history (input for `plan "
            "--snapshot`)",
            Access::read_only, [this](const json&, CommandContext&) -> CommandOutcome {
              if (!last_snapshot_) {
                return unavailable("no snapshot yet");
              }
              auto document = *last_snapshot_;
              document.history = codec::to_history(rounds_);
              return codec::to_json(document);
            });
  table.add("metrics", "Prometheus text exposition of what the daemon knows", Access::read_only,
            [this](const json&, CommandContext&) -> CommandOutcome {
              return json{{"content_type", "text/plain; version=0.0.4"}, {"text", metrics_text()}};
            });
  table.add("pause", "Keep deciding but start no migration until resume", Access::mutating,
            [this](const json&, CommandContext&) -> CommandOutcome {
              paused_ = true;
              spdlog::info("paused over the admin socket");
              return json{{"paused", true}};
            });
  table.add("resume", "Act on decisions again", Access::mutating,
            [this](const json&, CommandContext&) -> CommandOutcome {
              paused_ = false;
              spdlog::info("resumed over the admin socket");
              return json{{"paused", false}};
            });
  table.add("reconcile",
            "Run a round now; the reply names the round, `watch`, `status` and `history` show "
            "what it decided",
            Access::mutating, [this](const json&, CommandContext&) -> CommandOutcome {
              if (stopping_) {
                return codec::ErrorReply{codec::ErrorCode::busy, "the daemon is stopping"};
              }
              // The reply cannot wait for the scan: the loop thread answers everyone.
              bool joined = scanning_.has_value();
              auto record = begin_round("reconcile");
              return json{{"round", codec::to_json(record)}, {"pending", true}, {"joined", joined}};
            });
  table.add("dry_run", "Decide but never move: {\"enabled\": true|false}", Access::mutating,
            [this](const json& args, CommandContext&) -> CommandOutcome {
              auto enabled = bool_arg(args, "enabled");
              if (!enabled) {
                return bad_request("\"enabled\": true or false is required");
              }
              dry_run_ = *enabled;
              spdlog::info("dry-run {} over the admin socket", dry_run_ ? "on" : "off");
              return json{{"dry_run", dry_run_}};
            });
  table.add("migrate",
            "A manual job: {\"cgroup\": PATH | \"pid\": N, \"from\": N, \"to\": [M,...], "
            "\"max_bytes\", \"rate\", \"dry_run\"}",
            Access::mutating, [this](const json& args, CommandContext&) -> CommandOutcome {
              return manual_migrate(args);
            });
  table.add("cancel", "Cancel the running job at its next batch", Access::mutating,
            [this](const json&, CommandContext&) -> CommandOutcome {
              if (!job_) {
                return command_failed("no migration job is running");
              }
              job_->cancel = true;
              return json{{"job", job_->id}, {"cancelling", true}};
            });
  table.add("config", "The effective configuration", Access::read_only,
            [this](const json&, CommandContext&) -> CommandOutcome {
              json result = effective_config_json(config_);
              result["file"] = options_.config_file.string();
              return result;
            });
  table.add("reload", "Re-read the configuration file; an invalid one is rejected",
            Access::mutating, [this](const json&, CommandContext&) -> CommandOutcome {
              auto outcome = reload();
              if (!outcome.ok) {
                std::string message = "configuration rejected, the old one stays:";
                for (const auto& problem : outcome.problems) {
                  message += "\n  " + problem;
                }
                return command_failed(message);
              }
              return json{{"reloaded", true}, {"restart_needed", outcome.restart_needed}};
            });
  table.add("watch",
            "Stream events on this connection: round, job_started, job_progress, job_done, "
            "eviction, config_reloaded",
            Access::read_only, [](const json&, CommandContext& context) -> CommandOutcome {
              context.start_watching = true;
              return json{{"watching", true}};
            });
}

}  // namespace nb::service
