// The real numabalancerd's exposition as Prometheus takes it: `promtool check metrics` on
// `numabalancerctl metrics` and on the textfile, and node_exporter's textfile collector serving
// the textfile. Each test skips when its tool is not installed.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/daemon/service/prometheus_tools.hpp"
#include "tests/daemon/service/running_daemon.hpp"

namespace nb::testing {
namespace {

using namespace std::chrono_literals;
using ::testing::HasSubstr;

// A daemon that writes its textfile into the tree's textfile/ directory each round.
class ScrapedDaemon : public ::testing::Test {
 protected:
  ScrapedDaemon()
      : textfile(tree.make_dir("textfile") / "numabalancer.prom"),
        daemon(tree, "\n[export]\ntextfile = \"" + textfile.string() + "\"\n") {}

  // Waits for the first round's textfile.
  bool textfile_written() {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (std::chrono::steady_clock::now() < deadline) {
      if (std::filesystem::exists(textfile)) {
        return true;
      }
      std::this_thread::sleep_for(20ms);
    }
    return false;
  }

  TempTree tree;
  std::filesystem::path textfile;
  RunningDaemon daemon;
};

TEST_F(ScrapedDaemon, PromtoolFindsNothingToSayAboutCtlMetricsOrTheTextfile) {
  auto promtool = find_program("promtool");
  if (!promtool) {
    GTEST_SKIP() << "promtool is not installed (scripts/setup.sh --tests installs prometheus)";
  }
  ASSERT_TRUE(daemon.ready()) << daemon.process().err();
  ASSERT_TRUE(textfile_written());

  auto ctl = daemon.ctl({"metrics"});
  ASSERT_EQ(ctl->exit_code(), 0) << ctl->err();
  std::string served = ctl->out();
  EXPECT_THAT(served, HasSubstr("numabalancer_node_read_latency_seconds{node=\"0\","
                                "provider=\"file\"} 9.55e-08\n"));
  auto served_file = tree.make_file("served.prom", served);
  auto from_ctl = promtool_check(*promtool, served_file, tree.root());
  EXPECT_EQ(from_ctl.exit_code, 0) << from_ctl.problems;
  EXPECT_EQ(from_ctl.problems, "") << served;

  auto from_textfile = promtool_check(*promtool, textfile, tree.root());
  EXPECT_EQ(from_textfile.exit_code, 0) << from_textfile.problems;
  EXPECT_EQ(from_textfile.problems, "") << read_file(textfile);
}

TEST_F(ScrapedDaemon, NodeExporterTextfileCollectorServesTheSeriesWithoutAScrapeError) {
  auto exporter_program = find_program("prometheus-node-exporter");
  if (!exporter_program) {
    GTEST_SKIP() << "prometheus-node-exporter is not installed (scripts/setup.sh --tests)";
  }
  ASSERT_TRUE(daemon.ready()) << daemon.process().err();
  ASSERT_TRUE(textfile_written());

  TextfileExporter exporter(*exporter_program, textfile.parent_path(), tree.root());
  auto scraped = exporter.scrape();
  ASSERT_TRUE(scraped.has_value()) << exporter.log();
  EXPECT_THAT(*scraped, HasSubstr("\nnode_textfile_scrape_error 0\n")) << *scraped;
  EXPECT_THAT(*scraped, HasSubstr("numabalancer_node_read_latency_seconds{node=\"0\","
                                  "provider=\"file\"} 9.55e-08\n"));
  EXPECT_THAT(*scraped,
              HasSubstr("numabalancer_provider_up{metric=\"read_latency\",provider=\"file\"} 1\n"));
  EXPECT_THAT(*scraped, HasSubstr("# TYPE numabalancer_rounds_total counter\n"));
}

}  // namespace
}  // namespace nb::testing
