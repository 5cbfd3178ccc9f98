// numabalancerctl's human form of the daemon's results: the full migration report of the newest
// job in `status` and `history`, and the reply to a `reconcile` that is still reading the host;
// and replies that lack fields (another version of the daemon) shown without crashing.

#include "daemon/ctl/human_output.hpp"

#include "daemon/ctl/commands.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <sstream>
#include <string>
#include <vector>

namespace nb::ctl {
namespace {

using nlohmann::json;

json process(int pid, long long on_source, long long moved) {
  return {{"pid", pid},
          {"vanished", pid == 13},
          {"bytes_on_source", on_source},
          {"bytes_moved", moved},
          {"bytes_moved_to", {{"0", moved}}},
          {"outcomes", {{"moved", moved / 4096}, {"busy", pid == 12 ? 3 : 0}}},
          {"syscalls", 2}};
}

json full_report() {
  json big{{"id", "pods/big"},
           {"bytes_on_source", 40 << 20},
           {"bytes_moved", 30 << 20},
           {"bytes_moved_to", {{"0", 30 << 20}}},
           {"outcomes", {{"moved", 7680}, {"busy", 3}}},
           {"syscalls", 14},
           {"processes_omitted", 4},
           {"processes", json::array()}};
  for (int pid = 10; pid < 17; ++pid) {
    big["processes"].push_back(process(pid, 4 << 20, pid == 12 ? 0 : 4 << 20));
  }
  return {{"stop_reason", "budget_met"},
          {"bytes_moved", 30 << 20},
          {"goal", 32 << 20},
          {"threshold_met", true},
          {"syscalls", 14},
          {"elapsed_ms", 250.0},
          {"containers", {big}},
          {"errors",
           {{{"pid", 12},
             {"container_id", "pods/big"},
             {"errno", 13},
             {"message", "move_pages: Permission denied"},
             {"hint", "needs CAP_SYS_NICE"}}}}};
}

json finished_round() {
  return {{"number", 7},
          {"time", "2026-12-02T10:00:00Z"},
          {"trigger", "timer"},
          {"status", "ready"},
          {"outcome", "done"},
          {"source_node", 1},
          {"dest_nodes", {0}},
          {"containers", {"pods/big"}},
          {"planned_bytes", 32 << 20},
          {"moved_bytes", 30 << 20},
          {"report", {{"bytes_moved", 30 << 20}}},
          {"full_report", full_report()}};
}

void expect_contains(const std::string& out, const std::string& piece) {
  EXPECT_NE(out.find(piece), std::string::npos) << "missing \"" << piece << "\" in:\n" << out;
}

TEST(HumanOutput, HistoryShowsTheNewestFullReportPerContainerAndPid) {
  json older = finished_round();
  older["number"] = 6;
  older["full_report"]["stop_reason"] = "deadline";
  json summarised = finished_round();
  summarised["number"] = 8;
  summarised.erase("full_report");
  auto out = format_result("history", {{"rounds", {older, finished_round(), summarised}}});
  expect_contains(out, "OUTCOME");
  expect_contains(out, "round #7 report");
  expect_contains(out, "budget_met, 30.0 MiB moved of 32.0 MiB goal, threshold met");
  EXPECT_EQ(out.find("deadline"), std::string::npos) << "only the newest full report:\n" << out;
  expect_contains(out, "pods/big");
  expect_contains(out, "  pid 10");
  expect_contains(out, "  pid 13 (exited)");
  expect_contains(out, "3 pages");
  expect_contains(out, "0:30.0 MiB");
  EXPECT_EQ(out.find("pid 15"), std::string::npos) << "five processes per container:\n" << out;
  expect_contains(out, "(6 more processes)");
  expect_contains(out,
                  "error: pods/big pid 12: move_pages: Permission denied (needs CAP_SYS_NICE)");
}

TEST(HumanOutput, HistoryWithoutFullReportsIsJustTheTable) {
  json summarised = finished_round();
  summarised.erase("full_report");
  auto out = format_result("history", {{"rounds", {summarised}}});
  EXPECT_EQ(out.find("report"), std::string::npos) << out;
  expect_contains(out, "30.0 MiB");
}

TEST(HumanOutput, HistoryShowsEachRoundsEffectOrWhyThereIsNone) {
  json improved = finished_round();
  improved.erase("full_report");
  improved["effect"] = {{"improved", true},   {"hot_before", 95.4}, {"hot_after", 70.2},
                        {"gap_before", 35.0}, {"gap_after", 10.0},  {"bytes_moved", 1}};
  json flat = improved;
  flat["number"] = 8;
  flat["effect"]["improved"] = false;
  flat["effect"]["hot_after"] = 94.0;
  json pending = improved;
  pending["number"] = 9;
  pending.erase("effect");
  pending["effect_pending"] = true;
  json unknown = improved;
  unknown["number"] = 10;
  unknown["effect"] = nullptr;
  unknown["effect_reason"] = "the job moved nothing";
  auto out = format_result("history", {{"rounds", {improved, flat, pending, unknown}}});
  expect_contains(out, "EFFECT");
  expect_contains(out, "improved 95.4→70.2 ns");
  expect_contains(out, "not improved 95.4→94 ns");
  expect_contains(out, "pending");
  expect_contains(out, "unknown");
}

TEST(HumanOutput, StatusShowsTheLastJobAndARoundStillReading) {
  json status{
      {"state", "running"},
      {"pid", 1},
      {"interval_ms", 10000},
      {"rounds", 9},
      {"last_round", finished_round()},
      {"job", nullptr},
      {"round_in_progress", {{"number", 9}, {"trigger", "reconcile"}, {"elapsed_ms", 1500.0}}},
      {"last_job",
       {{"id", 3},
        {"kind", "round"},
        {"finished", "2026-12-02T10:00:01Z"},
        {"round", finished_round()}}}};
  auto out = format_result("status", status);
  expect_contains(out, "reading:    round #9 (reconcile), host scan running for 1500ms");
  expect_contains(out,
                  "last job:   job 3 (round), finished 2026-12-02T10:00:01.000Z: done, moved "
                  "30.0 MiB");
  expect_contains(out, "  pid 11");
}

json baseline(json value, json source, int samples, int needed) {
  return {{"read_latency_ns", std::move(value)},
          {"source", std::move(source)},
          {"samples", samples},
          {"samples_needed", needed}};
}

TEST(HumanOutput, StatusShowsEachNodesBaselineOrHowLongItStillLearns) {
  json status{{"state", "running"}, {"baselines", json::array()}};
  const json nodes[] = {baseline(92.04, "learned", 61, 0), baseline(141.5, "configured", 0, 0),
                        baseline(nullptr, nullptr, 5, 55)};
  for (int id = 0; id < 3; ++id) {
    json entry = nodes[id];
    entry["node"] = id;
    status["baselines"].push_back(entry);
  }
  auto out = format_result("status", status);
  expect_contains(out, "baseline:   node 0 92.04 ns (learned, 61 readings)\n");
  expect_contains(out, "baseline:   node 1 141.5 ns (configured)\n");
  expect_contains(out, "baseline:   node 2 learning: 55 more\n");
}

TEST(HumanOutput, TopologyHasABaselineColumn) {
  json topology{{"nodes",
                 {{{"id", 0},
                   {"cpus", "0-3"},
                   {"read_latency_ns", 95.0},
                   {"baseline", baseline(90.0, "learned", 60, 0)}},
                  {{"id", 1},
                   {"cpus", "4-7"},
                   {"read_latency_ns", 150.0},
                   {"baseline", baseline(nullptr, nullptr, 1, 59)}},
                  {{"id", 2}, {"cpus", ""}}}},
                {"pools", {{{"name", "share"}, {"nodes", {0, 1}}}}}};
  auto out = format_result("topology", topology);
  expect_contains(out, "BASELINE");
  expect_contains(out, "90 ns (learned, 60 readings)");
  expect_contains(out, "learning: 59 more");
  // A daemon from before baselines sends none: the cell is "-", not an error.
  const auto row_start = out.rfind("\n2 ") + 1;
  std::istringstream last_row(out.substr(row_start, out.find('\n', row_start) - row_start));
  std::vector<std::string> cells{std::istream_iterator<std::string>(last_row), {}};
  EXPECT_EQ(cells, (std::vector<std::string>{"2", "(none)", "-", "-", "-", "-", "-", "-"}));
}

TEST(HumanOutput, PendingReconcileSaysWhereTheOutcomeWillShow) {
  auto started = format_result(
      "reconcile",
      {{"round", {{"number", 12}, {"outcome", "pending"}}}, {"pending", true}, {"joined", false}});
  expect_contains(started, "round #12 started: reading the host");
  auto joined = format_result(
      "reconcile",
      {{"round", {{"number", 12}, {"outcome", "pending"}}}, {"pending", true}, {"joined", true}});
  expect_contains(joined, "round #12 was already running, this request joins it");
}

TEST(HumanOutput, PlanShowsEqualizesPrediction) {
  const json decision = {
      {"status", "ready"},
      {"reason", "evening out node 0 (746.2 ns) with node 1"},
      {"level", "none"},
      {"source_node", 0},
      {"dest_nodes", {1}},
      {"migrate", {{{"id", "stream.scope"}, {"bytes_on_source", 6531806321}, {"dest_nodes", {1}}}}},
      {"evict", json::array()},
      {"total_bytes", 6531806321},
      {"threshold", 0.7},
      {"strategy", "equalize"},
      {"prediction",
       {{"nodes",
         {{{"node", 0},
           {"latency_before_ns", 746.2},
           {"latency_after_ns", 102.77},
           {"bandwidth_before_gbps", 128.0},
           {"bandwidth_after_gbps", 63.1},
           {"learned_curve", true}},
          {{"node", 1},
           {"latency_before_ns", 90.1},
           {"latency_after_ns", 102.77},
           {"bandwidth_before_gbps", 0.0},
           {"bandwidth_after_gbps", 64.9},
           {"learned_curve", false}}}},
        {"traffic_per_gib", 10.667},
        {"service_latency_before_ns", 746.2},
        {"service_latency_after_ns", 102.77}}}};
  const std::string shown = format_result("plan", {{"decision", decision}});
  expect_contains(shown, "predicted:");
  expect_contains(shown, "746.2 ns");
  expect_contains(shown, "102.77 ns");
  expect_contains(shown, "learned");
  expect_contains(shown, "assumed");
  expect_contains(shown, "service memory: 746.2 -> 102.77 ns predicted");
  // The seed's decisions have no prediction, and show none.
  json seed = decision;
  seed.erase("prediction");
  seed.erase("strategy");
  EXPECT_EQ(format_result("plan", {{"decision", seed}}).find("predicted"), std::string::npos);
}

// Every object a view reads, present but empty; the sanitizer build keeps nlohmann::json's
// assertions, so a read of a missing key through a const operator[] fails here.
json reply_without_fields() {
  json skeleton = json::object();
  for (const char* list : {"rounds", "nodes", "containers", "pools", "commands", "providers",
                           "baselines", "processes", "errors"}) {
    skeleton[list] = json::array({json::object()});
  }
  for (const char* object : {"last_round", "job", "last_job", "round", "decision",
                             "round_in_progress", "deferred", "report", "full_report"}) {
    skeleton[object] = json::object();
  }
  return skeleton;
}

TEST(HumanOutput, EveryViewShowsARepliesWithoutItsFields) {
  for (const auto& command : commands()) {
    const std::string name(command.name);
    for (const json& reply : {json::object(), reply_without_fields()}) {
      EXPECT_NO_THROW(format_result(name, reply)) << name << " " << reply.dump();
    }
  }
  for (const char* kind : {"round", "job_done", "job_started", "job_progress", "eviction"}) {
    EXPECT_NE(format_event(kind, "t", json::object()).find(kind), std::string::npos) << kind;
  }
}

}  // namespace
}  // namespace nb::ctl
