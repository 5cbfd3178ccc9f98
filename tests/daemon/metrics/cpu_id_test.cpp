#include "daemon/metrics/cpu_id.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::metrics {
namespace {

// Two processors as x86 Linux writes them; "model name" must not be taken for "model".
constexpr std::string_view kSapphireRapids =
    "processor\t: 0\n"
    "vendor_id\t: GenuineIntel\n"
    "cpu family\t: 6\n"
    "model\t\t: 143\n"
    "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
    "stepping\t: 8\n"
    "\n"
    "processor\t: 1\n"
    "vendor_id\t: GenuineIntel\n"
    "cpu family\t: 6\n"
    "model\t\t: 143\n"
    "model name\t: Intel(R) Xeon(R) Platinum 8480+\n"
    "\n";

TEST(CpuIdTest, FirstProcessorsVendorFamilyAndModel) {
  auto cpu = parse_cpuinfo(kSapphireRapids);
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();
  EXPECT_EQ(*cpu, (CpuId{"GenuineIntel", 6, 143}));
}

TEST(CpuIdTest, ModelNameBeforeModelIsNotTheModel) {
  auto cpu = parse_cpuinfo(
      "vendor_id : AuthenticAMD\nmodel name : AMD EPYC 9654\ncpu family : 25\nmodel : 17\n");
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();
  EXPECT_EQ(*cpu, (CpuId{"AuthenticAMD", 25, 17}));
}

TEST(CpuIdTest, DescribedInDecimalAndHex) {
  EXPECT_EQ(to_string(CpuId{"GenuineIntel", 6, 0x8f}), "GenuineIntel family 6 model 143 (0x8f)");
}

TEST(CpuIdTest, MissingOrGarbledFieldsAreErrors) {
  struct Case {
    std::string_view text;
    std::string_view names;
  };
  for (const Case& c :
       {Case{"vendor_id : GenuineIntel\ncpu family : 6\n", "model"},
        Case{"cpu family : 6\nmodel : 85\n", "vendor_id"},
        Case{"vendor_id : GenuineIntel\ncpu family : six\nmodel : 85\n", "cpu family"},
        Case{"", "vendor_id"}}) {
    auto cpu = parse_cpuinfo(c.text);
    ASSERT_FALSE(cpu.ok()) << c.text;
    EXPECT_NE(cpu.error().context.find(c.names), std::string::npos) << cpu.error().context;
  }
}

TEST(CpuIdTest, ReadUnderTheHostRoot) {
  nb::testing::TempTree tree;
  tree.make_file("proc/cpuinfo", kSapphireRapids);
  auto cpu = read_cpu_id(tree.root());
  ASSERT_TRUE(cpu.ok()) << cpu.error().message();
  EXPECT_EQ(cpu->model, 143U);

  tree.make_file("proc/cpuinfo", "processor : 0\n");
  auto broken = read_cpu_id(tree.root());
  ASSERT_FALSE(broken.ok());
  EXPECT_NE(broken.error().context.find("proc/cpuinfo"), std::string::npos);
}

TEST(CpuIdTest, MissingCpuinfoIsAnErrorNamingThePath) {
  nb::testing::TempTree tree;
  auto cpu = read_cpu_id(tree.root());
  ASSERT_FALSE(cpu.ok());
  EXPECT_NE(cpu.error().message().find("proc/cpuinfo"), std::string::npos);
}

}  // namespace
}  // namespace nb::metrics
