// The host model's formulas, the mover's rate limit, floor and weighting, and the summary's
// reversed bytes, on small scenarios built in code.

#include <gtest/gtest.h>

#include "daemon/sim/host_model.hpp"
#include "daemon/sim/mover.hpp"
#include "daemon/sim/summary.hpp"

namespace nb::sim {
namespace {

Scenario two_nodes() {
  Scenario s;
  s.duration = std::chrono::minutes(10);
  s.interval = std::chrono::seconds(10);
  s.nodes = {ScenarioNode{0, "0-3", 100 * kGiB, 100, 100, 10},
             ScenarioNode{1, "4-7", 100 * kGiB, 100, 100, 0}};
  s.distance = {{0, {{0, 10}, {1, 20}}}, {1, {{0, 20}, {1, 10}}}};
  s.pools = {ScenarioPool{"reclaim", {0, 1}}};
  s.containers = {ScenarioContainer{"a", "reclaim", 0, {{0, 30 * kGiB}, {1, 10 * kGiB}}, 40, true}};
  return s;
}

TEST(HostModel, TrafficFollowsBytesAndLatencyFollowsTheCurve) {
  HostModel host(two_nodes());
  auto loads = host.loads();
  EXPECT_DOUBLE_EQ(loads[0].traffic_gbps, 10 + 40 * 0.75);
  EXPECT_DOUBLE_EQ(loads[1].traffic_gbps, 40 * 0.25);
  EXPECT_DOUBLE_EQ(loads[0].loaded_latency_ns, 100 * (1 + 0.15 * 0.4 / 0.6));
  // 3/4 local, 1/4 remote at distance 20: 100 x 0.05 x 10 = 50 ns more.
  EXPECT_DOUBLE_EQ(host.access_latency_ns(0, loads),
                   0.75 * loads[0].loaded_latency_ns + 0.25 * (loads[1].loaded_latency_ns + 50));
}

TEST(HostModel, UtilisationStopsShortOfThePeak) {
  Scenario s = two_nodes();
  s.nodes[0].background_gbps = 500;
  HostModel host(s);
  EXPECT_DOUBLE_EQ(host.loads()[0].utilisation, kMaxUtilisation);
}

TEST(HostModel, EventsChangeTrafficAndBackground) {
  HostModel host(two_nodes());
  host.apply(ScenarioEvent{{}, std::string("a"), std::nullopt, 80.0, std::nullopt, std::nullopt});
  host.apply(ScenarioEvent{{}, std::nullopt, 1, std::nullopt, std::nullopt, 5.0});
  auto loads = host.loads();
  EXPECT_DOUBLE_EQ(loads[0].traffic_gbps, 10 + 60);
  EXPECT_DOUBLE_EQ(loads[1].traffic_gbps, 5 + 20);
}

actuator::MigrationTarget target(std::vector<NodeId> dests) {
  return actuator::MigrationTarget{"a", "a", std::nullopt, std::move(dests), std::nullopt};
}

TEST(Mover, MovesAtTheRateLimitAndStopsAtTheBudget) {
  HostModel host(two_nodes());
  config::ActuatorConfig settings;
  settings.rate_limit_mib_per_s = 512;
  Mover mover(host, 0, {target({1})}, 2 * kGiB, settings);
  Bytes seen = 0;
  mover.run_second([&](const Batch& batch) { seen += batch.bytes; });
  EXPECT_EQ(seen, 512 * kMiB);
  EXPECT_FALSE(mover.done());
  for (int i = 0; i < 10 && !mover.done(); ++i) {
    mover.run_second([](const Batch&) {});
  }
  EXPECT_EQ(mover.moved(), 2 * kGiB);
  EXPECT_EQ(host.bytes_on(0, 1), 12 * kGiB);
}

TEST(Mover, KeepsMinFreeBytesOnTheDestination) {
  Scenario s = two_nodes();
  s.nodes[1].memory = 14 * kGiB;  // 4 GiB free
  HostModel host(s);
  config::ActuatorConfig settings;
  settings.rate_limit_mib_per_s = 0;
  settings.min_free_bytes = 3 * kGiB;
  Mover mover(host, 0, {target({1})}, 20 * kGiB, settings);
  mover.run_second([](const Batch&) {});
  EXPECT_TRUE(mover.done());
  EXPECT_EQ(mover.moved(), 1 * kGiB);
  EXPECT_EQ(host.free_bytes(1), 3 * kGiB);
}

TEST(Mover, SpreadsOverDestinationsByFreeMemory) {
  Scenario s = two_nodes();
  s.nodes.push_back(ScenarioNode{2, "8-11", 40 * kGiB, 100, 100, 0});  // 3x less room
  s.distance = {{0, {{0, 10}, {1, 20}, {2, 20}}},
                {1, {{0, 20}, {1, 10}, {2, 20}}},
                {2, {{0, 20}, {1, 20}, {2, 10}}}};
  s.containers[0].memory = {{0, 30 * kGiB}};
  s.nodes[1].memory = 100 * kGiB;
  HostModel host(s);
  config::ActuatorConfig settings;
  settings.rate_limit_mib_per_s = 0;
  settings.min_free_bytes = 10 * kGiB;
  Mover mover(host, 0, {target({1, 2})}, 12 * kGiB, settings);
  mover.run_second([](const Batch&) {});
  // Headroom above the floor: 90 GiB and 30 GiB, so three quarters go to node 1.
  EXPECT_NEAR(static_cast<double>(host.bytes_on(0, 1)), 9.0 * kGiB, 64.0 * kMiB);
  EXPECT_NEAR(static_cast<double>(host.bytes_on(0, 2)), 3.0 * kGiB, 64.0 * kMiB);
}

TEST(Summary, BytesComingBackWithinTheWindowAreReversed) {
  HostModel host(two_nodes());
  SummaryBuilder summary(host, std::chrono::seconds(100), std::nullopt, std::chrono::seconds(10));
  summary.batch(0, Batch{0, 0, 1, 4 * kGiB});
  summary.batch(50, Batch{0, 1, 0, 1 * kGiB});   // within 100 s of leaving node 0
  summary.batch(500, Batch{0, 1, 0, 2 * kGiB});  // long after
  Summary result = summary.finish(host.loads());
  EXPECT_EQ(result.bytes_moved, 7 * kGiB);
  EXPECT_EQ(result.bytes_reversed, 1 * kGiB);
  EXPECT_EQ(result.bytes_received.at(0), 3 * kGiB);
}

}  // namespace
}  // namespace nb::sim
