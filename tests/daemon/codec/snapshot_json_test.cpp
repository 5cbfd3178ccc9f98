#include "daemon/codec/snapshot_json.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "base/time.hpp"

namespace nb::codec {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

const TimePoint kDefaultTime = std::chrono::sys_days{std::chrono::year{2030} / 1 / 1};

// The example of issue 3.
json example() {
  return json::parse(R"({
    "time": "2026-12-02T10:00:00Z",
    "nodes": [
      {"id": 0, "read_latency_ns": 110.0, "bandwidth_gbps": 30.5, "distance": {"0": 10, "1": 21},
       "free_bytes": 1073741824, "total_bytes": 8589934592, "cpus": "0-15"},
      {"id": 1, "read_latency_ns": 60.0,  "bandwidth_gbps": 12.0, "distance": {"0": 21, "1": 10}}
    ],
    "pools": [ {"name": "share", "nodes": [0, 1]}, {"name": "reclaim", "nodes": [0, 1]} ],
    "containers": [ {"id": "batch.slice/job-7.scope", "pool": "reclaim",
                     "anon_bytes": {"0": 2147483648, "1": 0}} ],
    "history": [ {"time": "2026-12-02T09:55:00Z", "source_node": 1, "dest_nodes": [0],
                  "migrated": true, "evicted": false} ],
    "config": { "policy": { "force_read_latency_ns": 120 } },
    "meta": { "host": "db-7", "cgroup_mode": "v2", "latency_provider": "probe",
              "bandwidth_provider": "perf" }
  })");
}

Result<SnapshotDocument> parse(const json& document) {
  return parse_snapshot(document.dump(), kDefaultTime);
}

TEST(SnapshotJson, ParsesTheIssueExample) {
  auto parsed = parse(example());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  const core::Snapshot& snapshot = parsed->snapshot;
  EXPECT_EQ(format_rfc3339(snapshot.time), "2026-12-02T10:00:00Z");
  ASSERT_EQ(snapshot.nodes.size(), 2u);
  EXPECT_EQ(snapshot.nodes[0].read_latency_ns, 110.0);
  EXPECT_EQ(snapshot.nodes[0].bandwidth_gbps, 30.5);
  EXPECT_EQ(snapshot.nodes[0].distance, (std::map<NodeId, int>{{0, 10}, {1, 21}}));
  EXPECT_EQ(snapshot.nodes[0].free_bytes, kGiB);
  EXPECT_EQ(snapshot.nodes[0].total_bytes, 8 * kGiB);
  EXPECT_EQ(snapshot.nodes[0].cpus, "0-15");
  EXPECT_FALSE(snapshot.nodes[1].free_bytes.has_value());
  EXPECT_TRUE(snapshot.nodes[1].memory_only());
  ASSERT_EQ(snapshot.pools.size(), 2u);
  EXPECT_EQ(snapshot.pools[1].name, "reclaim");
  EXPECT_EQ(snapshot.pools[1].nodes, (std::vector<NodeId>{0, 1}));
  ASSERT_EQ(snapshot.containers.size(), 1u);
  EXPECT_EQ(snapshot.containers[0].anon_on(0), 2 * kGiB);
  ASSERT_EQ(parsed->history.size(), 1u);
  EXPECT_EQ(parsed->history[0].source_node, 1);
  EXPECT_EQ(parsed->history[0].time, snapshot.time - 5min);
  EXPECT_EQ(parsed->policy_overrides, json({{"force_read_latency_ns", 120}}));
  EXPECT_EQ(parsed->meta["host"], "db-7");
}

TEST(SnapshotJson, OptionalPartsTakeTheirDefaults) {
  auto parsed = parse_snapshot(R"({"nodes": [{"id": 3, "read_latency_ns": null,
                                               "distance": {"3": 10}}]})",
                               kDefaultTime);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->snapshot.time, kDefaultTime);
  EXPECT_FALSE(parsed->snapshot.nodes[0].read_latency_ns.has_value());
  EXPECT_FALSE(parsed->snapshot.nodes[0].bandwidth_gbps.has_value());
  EXPECT_TRUE(parsed->snapshot.pools.empty());
  EXPECT_TRUE(parsed->snapshot.containers.empty());
  EXPECT_TRUE(parsed->history.empty());
  EXPECT_TRUE(parsed->policy_overrides.empty());
  EXPECT_TRUE(parsed->meta.empty());
}

TEST(SnapshotJson, MetaIsCarriedWithoutInterpretation) {
  json document = example();
  document["meta"] = {{"anything", {{"nested", {1, 2, 3}}}}, {"scan", {{"cgroups", 412}}}};
  auto parsed = parse(document);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->meta, document["meta"]);
}

TEST(SnapshotJson, ContainerOfAnUndeclaredPoolIsNotAnError) {
  json document = example();
  document["containers"].push_back({{"id", "x"}, {"pool", "nowhere"}, {"anon_bytes", {}}});
  EXPECT_TRUE(parse(document).ok());
}

TEST(SnapshotJson, RoundTripsThroughToJson) {
  auto first = parse(example());
  ASSERT_TRUE(first.ok());
  const json printed = to_json(*first);
  auto second = parse(printed);
  ASSERT_TRUE(second.ok()) << second.error().message();
  EXPECT_EQ(to_json(*second), printed);
  EXPECT_EQ(printed["nodes"][1]["read_latency_ns"], 60.0);
  EXPECT_FALSE(printed["nodes"][1].contains("cpus"));
  EXPECT_EQ(printed["config"]["policy"]["force_read_latency_ns"], 120);
}

TEST(SnapshotJson, AbsentMetricsPrintAsNull) {
  auto parsed = parse_snapshot(R"({"nodes": [{"id": 0, "distance": {"0": 10}}]})", kDefaultTime);
  ASSERT_TRUE(parsed.ok());
  const json printed = to_json(*parsed);
  EXPECT_TRUE(printed["nodes"][0]["read_latency_ns"].is_null());
  EXPECT_TRUE(printed["nodes"][0]["bandwidth_gbps"].is_null());
}

TEST(SnapshotJson, AbsentKindAndBaselinesStayAbsent) {
  auto parsed = parse(example());
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_FALSE(parsed->snapshot.read_latency_kind.has_value());
  EXPECT_EQ(parsed->snapshot.latency_kind(), core::LatencyKind::memory_controller_queue);
  EXPECT_FALSE(parsed->snapshot.nodes[0].baseline_read_latency_ns.has_value());
  const json printed = to_json(*parsed);
  EXPECT_FALSE(printed.contains("read_latency_kind"));
  EXPECT_TRUE(printed["nodes"][0]["baseline_read_latency_ns"].is_null());
}

TEST(SnapshotJson, NullBaselineIsAbsent) {
  json document = example();
  document["nodes"][0]["baseline_read_latency_ns"] = nullptr;
  auto parsed = parse(document);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_FALSE(parsed->snapshot.nodes[0].baseline_read_latency_ns.has_value());
}

TEST(SnapshotJson, CarriesThresholdOverridesThroughConfigPolicy) {
  json document = example();
  document["config"]["policy"] = {{"threshold_mode", "relative"}, {"force_latency_ratio", 1.6}};
  auto parsed = parse(document);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  auto policy = apply_policy_overrides({}, parsed->policy_overrides);
  ASSERT_TRUE(policy.ok()) << policy.error().message();
  EXPECT_EQ(policy->threshold_mode, core::ThresholdMode::relative);
  EXPECT_EQ(policy->force_latency_ratio, 1.6);
  EXPECT_EQ(to_json(*parsed)["config"]["policy"]["threshold_mode"], "relative");
}

struct KindCase {
  const char* name;
  core::LatencyKind kind;
};

class SnapshotJsonKinds : public ::testing::TestWithParam<KindCase> {};

TEST_P(SnapshotJsonKinds, KindAndBaselinesRoundTrip) {
  json document = example();
  document["read_latency_kind"] = GetParam().name;
  document["nodes"][0]["baseline_read_latency_ns"] = 92.0;
  document["nodes"][1]["baseline_read_latency_ns"] = 141.5;
  auto parsed = parse(document);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message();
  EXPECT_EQ(parsed->snapshot.read_latency_kind, GetParam().kind);
  EXPECT_EQ(parsed->snapshot.nodes[0].baseline_read_latency_ns, 92.0);
  EXPECT_EQ(parsed->snapshot.nodes[1].baseline_read_latency_ns, 141.5);
  const json printed = to_json(*parsed);
  EXPECT_EQ(printed["read_latency_kind"], GetParam().name);
  EXPECT_EQ(printed["nodes"][1]["baseline_read_latency_ns"], 141.5);
  auto again = parse(printed);
  ASSERT_TRUE(again.ok()) << again.error().message();
  EXPECT_EQ(to_json(*again), printed);
}

INSTANTIATE_TEST_SUITE_P(Kinds, SnapshotJsonKinds,
                         ::testing::Values(KindCase{"memory_controller_queue",
                                                    core::LatencyKind::memory_controller_queue},
                                           KindCase{"cache_miss", core::LatencyKind::cache_miss},
                                           KindCase{"load_to_use", core::LatencyKind::load_to_use},
                                           KindCase{"external", core::LatencyKind::external}),
                         [](const auto& info) { return std::string(info.param.name); });

struct BadCase {
  const char* name;
  std::function<void(json&)> change;
  const char* error;
};

class SnapshotJsonRejects : public ::testing::TestWithParam<BadCase> {};

TEST_P(SnapshotJsonRejects, NamingThePathOfTheBadField) {
  json document = example();
  GetParam().change(document);
  auto parsed = parse(document);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), GetParam().error);
}

INSTANTIATE_TEST_SUITE_P(
    Cases, SnapshotJsonRejects,
    ::testing::Values(
        BadCase{"MissingNodes", [](json& d) { d.erase("nodes"); }, "nodes: missing"},
        BadCase{"MissingNodeId", [](json& d) { d["nodes"][1].erase("id"); },
                "nodes[1].id: missing"},
        BadCase{"MissingDistance", [](json& d) { d["nodes"][0].erase("distance"); },
                "nodes[0].distance: missing"},
        BadCase{"DistanceRowMissingANode", [](json& d) { d["nodes"][1]["distance"].erase("0"); },
                "nodes[1].distance: missing node 0"},
        BadCase{"DistanceToUnknownNode", [](json& d) { d["nodes"][0]["distance"]["7"] = 32; },
                "nodes[0].distance.7: unknown node 7"},
        BadCase{"DistanceKeyNotANode", [](json& d) { d["nodes"][0]["distance"]["one"] = 21; },
                "nodes[0].distance.one: not a node id"},
        BadCase{"DistanceKeyWithLeadingZero", [](json& d) { d["nodes"][0]["distance"]["01"] = 21; },
                "nodes[0].distance.01: not a node id"},
        BadCase{"ZeroDistance", [](json& d) { d["nodes"][0]["distance"]["1"] = 0; },
                "nodes[0].distance.1: a distance is between 1 and 255, got 0"},
        BadCase{"LatencyOfWrongType", [](json& d) { d["nodes"][0]["read_latency_ns"] = "fast"; },
                "nodes[0].read_latency_ns: expected a number, got string"},
        BadCase{"NegativeLatency", [](json& d) { d["nodes"][0]["read_latency_ns"] = -3.5; },
                "nodes[0].read_latency_ns: must not be negative, got -3.5"},
        BadCase{"UnknownLatencyKind", [](json& d) { d["read_latency_kind"] = "queue"; },
                "read_latency_kind: unknown latency kind \"queue\" (one of "
                "memory_controller_queue, cache_miss, load_to_use, external)"},
        BadCase{"LatencyKindOfWrongType", [](json& d) { d["read_latency_kind"] = 3; },
                "read_latency_kind: expected a string, got number"},
        BadCase{"ZeroBaseline", [](json& d) { d["nodes"][1]["baseline_read_latency_ns"] = 0; },
                "nodes[1].baseline_read_latency_ns: a baseline is a latency above 0 ns, got 0"},
        BadCase{"NegativeBaseline",
                [](json& d) { d["nodes"][0]["baseline_read_latency_ns"] = -92.5; },
                "nodes[0].baseline_read_latency_ns: a baseline is a latency above 0 ns, got "
                "-92.5"},
        BadCase{"BaselineOfWrongType",
                [](json& d) { d["nodes"][0]["baseline_read_latency_ns"] = "92"; },
                "nodes[0].baseline_read_latency_ns: expected a number, got string"},
        BadCase{"FractionalNodeId", [](json& d) { d["nodes"][1]["id"] = 1.5; },
                "nodes[1].id: expected an integer, got 1.5"},
        BadCase{"NegativeNodeId", [](json& d) { d["nodes"][1]["id"] = -1; },
                "nodes[1].id: not a node id: -1"},
        BadCase{"DuplicateNodeId", [](json& d) { d["nodes"][1]["id"] = 0; },
                "nodes[1].id: duplicate node 0"},
        BadCase{"NegativeFreeBytes", [](json& d) { d["nodes"][0]["free_bytes"] = -1; },
                "nodes[0].free_bytes: must not be negative, got -1"},
        BadCase{"BadCpuList", [](json& d) { d["nodes"][0]["cpus"] = "0-"; },
                "nodes[0].cpus: not a cpu list: \"0-\""},
        BadCase{"UnknownNodeKey", [](json& d) { d["nodes"][0]["colour"] = "red"; },
                "nodes[0].colour: unknown key"},
        BadCase{"UnknownTopLevelKey", [](json& d) { d["colour"] = "red"; }, "colour: unknown key"},
        BadCase{"NodesNotAnArray", [](json& d) { d["nodes"] = json::object(); },
                "nodes: expected an array, got object"},
        BadCase{"PoolNodeUnknown", [](json& d) { d["pools"][0]["nodes"].push_back(5); },
                "pools[0].nodes[2]: unknown node 5"},
        BadCase{"PoolNodeTwice", [](json& d) { d["pools"][0]["nodes"].push_back(0); },
                "pools[0].nodes[2]: duplicate node 0"},
        BadCase{"DuplicatePool", [](json& d) { d["pools"][1]["name"] = "share"; },
                "pools[1].name: duplicate pool share"},
        BadCase{"PoolMissingNodes", [](json& d) { d["pools"][0].erase("nodes"); },
                "pools[0].nodes: missing"},
        BadCase{"UnknownPoolKey", [](json& d) { d["pools"][0]["cpus"] = "0-3"; },
                "pools[0].cpus: unknown key"},
        BadCase{"NegativeAnonBytes", [](json& d) { d["containers"][0]["anon_bytes"]["1"] = -5; },
                "containers[0].anon_bytes.1: must not be negative, got -5"},
        BadCase{"AnonBytesAsString",
                [](json& d) { d["containers"][0]["anon_bytes"]["1"] = "1GiB"; },
                "containers[0].anon_bytes.1: expected an integer, got string"},
        BadCase{"AnonOnUnknownNode", [](json& d) { d["containers"][0]["anon_bytes"]["3"] = 1; },
                "containers[0].anon_bytes.3: unknown node 3"},
        BadCase{"DuplicateContainer",
                [](json& d) { d["containers"].push_back(d["containers"][0]); },
                "containers[1].id: duplicate container batch.slice/job-7.scope"},
        BadCase{"ContainerMissingPool", [](json& d) { d["containers"][0].erase("pool"); },
                "containers[0].pool: missing"},
        BadCase{"BadTime", [](json& d) { d["time"] = "yesterday"; },
                "time: invalid time \"yesterday\": malformed (expected RFC 3339, e.g. "
                "2026-12-02T10:00:00Z)"},
        BadCase{"HistoryRoundMissingTime", [](json& d) { d["history"][0].erase("time"); },
                "history[0].time: missing"},
        BadCase{"HistoryFlagOfWrongType", [](json& d) { d["history"][0]["migrated"] = "yes"; },
                "history[0].migrated: expected true or false, got string"},
        BadCase{"UnknownHistoryKey", [](json& d) { d["history"][0]["bytes"] = 1; },
                "history[0].bytes: unknown key"},
        BadCase{"UnknownConfigSection", [](json& d) { d["config"]["daemon"] = json::object(); },
                "config.daemon: unknown key"},
        BadCase{"UnknownPolicyKey", [](json& d) { d["config"]["policy"]["speed"] = 1; },
                "config.policy.speed: unknown key"},
        BadCase{"PolicyValueOfWrongType",
                [](json& d) { d["config"]["policy"]["grace_gap_ratio"] = "high"; },
                "config.policy.grace_gap_ratio: expected a number, got string"},
        BadCase{"UnknownThresholdModeOverride",
                [](json& d) { d["config"]["policy"]["threshold_mode"] = "ratio"; },
                "config.policy.threshold_mode: must be one of auto, absolute, relative, not "
                "\"ratio\""},
        BadCase{"MetaNotAnObject", [](json& d) { d["meta"] = json::array(); },
                "meta: expected an object, got array"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(SnapshotJson, InvalidJsonSaysWhere) {
  auto parsed = parse_snapshot("{\"nodes\": [}", kDefaultTime);
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message(),
              ::testing::StartsWith("invalid JSON: parse error at line 1, column 12"));
}

TEST(SnapshotJson, NumberTooLargeForADoubleIsAnErrorNotACrash) {
  // Found by fuzz_snapshot_decide: the library reports this as out_of_range, not parse_error.
  auto parsed = parse_snapshot("{\"nodes\": [5E5555]}", kDefaultTime);
  ASSERT_FALSE(parsed.ok());
  EXPECT_THAT(parsed.error().message(), ::testing::HasSubstr("number overflow"));
}

TEST(SnapshotJson, DocumentMustBeAnObject) {
  auto parsed = parse_snapshot("[1, 2]", kDefaultTime);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error().message(), "snapshot: expected an object, got array");
}

}  // namespace
}  // namespace nb::codec
