#include "actuator/numa_maps.hpp"

#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

std::string fixture(const char* name) {
  return nb::testing::read_file(std::filesystem::path(NB_SOURCE_DIR) / "tests/data/actuator" /
                                name);
}

TEST(NumaMaps, ParsesCapturedLinesWithThpHugetlbFileAndSharedMappings) {
  auto vmas = parse_numa_maps(fixture("numa_maps_thp_hugetlb.txt"), "fixture");
  ASSERT_TRUE(vmas.ok()) << vmas.error().message();
  ASSERT_EQ(vmas->size(), 26u);

  const Vma& binary_data = (*vmas)[3];  // private file mapping with a COW page shared with a child
  EXPECT_EQ(binary_data.start, 0x5599ac2f8000u);
  EXPECT_EQ(binary_data.file, "/tmp/nbact/cap");
  EXPECT_EQ(binary_data.anon_pages, 1);
  EXPECT_EQ(binary_data.max_mappers, 2);
  EXPECT_EQ(binary_data.pages_on(0), 1);

  const Vma& hugetlb = (*vmas)[6];
  EXPECT_TRUE(hugetlb.hugetlb);
  EXPECT_EQ(hugetlb.page_size, 2 * kMiB);
  EXPECT_EQ(hugetlb.pages_on(0), 2);
  EXPECT_EQ(hugetlb.bytes_on(0), 4 * kMiB);
  EXPECT_EQ(hugetlb.file, "/anon_hugepage\\040(deleted)");

  const Vma& thp = (*vmas)[7];  // THP-backed anonymous memory counts in 4 KiB pages
  EXPECT_FALSE(thp.hugetlb);
  EXPECT_EQ(thp.page_size, 4 * kKiB);
  EXPECT_EQ(thp.bytes_on(0), 8 * kMiB);

  const Vma& empty = (*vmas)[8];  // reserved, nothing resident
  EXPECT_EQ(empty.resident_pages(), 0);
  EXPECT_EQ(empty.bytes_on(0), 0);

  EXPECT_EQ((*vmas)[25].kind, "stack");
  EXPECT_EQ((*vmas)[11].max_mappers, 65);
}

TEST(NumaMaps, ReadsPagesPerNodeOnSeveralNodes) {
  auto vmas = parse_numa_maps(
      "7f0000000000 bind:1 anon=300 dirty=300 N0=100 N1=150 N3=50 kernelpagesize_kB=4\n", "text");
  ASSERT_TRUE(vmas.ok());
  EXPECT_EQ((*vmas)[0].pages_on(0), 100);
  EXPECT_EQ((*vmas)[0].pages_on(1), 150);
  EXPECT_EQ((*vmas)[0].pages_on(2), 0);
  EXPECT_EQ((*vmas)[0].pages_on(3), 50);
  EXPECT_EQ(bytes_on_node(*vmas, 1), 150 * 4 * kKiB);
}

struct GarbageCase {
  const char* name;
  const char* text;
  const char* mentions;
};

class NumaMapsGarbage : public ::testing::TestWithParam<GarbageCase> {};

TEST_P(NumaMapsGarbage, IsAnErrorNamingTheLine) {
  auto vmas = parse_numa_maps(GetParam().text, "/proc/7/numa_maps");
  ASSERT_FALSE(vmas.ok());
  EXPECT_NE(vmas.error().message().find("/proc/7/numa_maps line 2"), std::string::npos)
      << vmas.error().message();
  EXPECT_NE(vmas.error().message().find(GetParam().mentions), std::string::npos)
      << vmas.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Lines, NumaMapsGarbage,
    ::testing::Values(GarbageCase{"BadAddress", "1000 default\nzz00 default N0=1\n", "zz00"},
                      GarbageCase{"BadNodeCount",
                                  "1000 default\n2000 default N0=x kernelpagesize_kB=4\n", "N0=x"},
                      GarbageCase{"NegativeCount", "1000 default\n2000 default N1=-3\n", "N1=-3"},
                      GarbageCase{"BadNodeId", "1000 default\n2000 default Nx=3\n", "Nx=3"},
                      GarbageCase{"ZeroPageSize",
                                  "1000 default\n2000 default kernelpagesize_kB=0\n",
                                  "kernelpagesize_kB=0"},
                      GarbageCase{"MissingPolicy", "1000 default\n2000\n", "2000"},
                      GarbageCase{"CountOverflowingBytes",
                                  "1000 default\n2000 default N0=13007604556470000 "
                                  "kernelpagesize_kB=4\n",
                                  "2000"},
                      GarbageCase{"PageSizeBeyondOneGibibyte",
                                  "1000 default\n2000 default N0=1 kernelpagesize_kB=2097152\n",
                                  "kernelpagesize_kB=2097152"},
                      GarbageCase{"CountsOverflowingTogether",
                                  "1000 default N0=30000000000000\n"
                                  "2000 default N0=30000000000000\n",
                                  "more pages in all"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(Maps, JoinsEndsAndDropsVmasMissingFromEitherFile) {
  nb::testing::TempTree tree;
  tree.make_file("proc/9/numa_maps", fixture("numa_maps_thp_hugetlb.txt"));
  tree.make_file("proc/9/maps", fixture("maps_thp_hugetlb.txt"));
  auto vmas = read_process_vmas(tree.path("proc"), 9);
  ASSERT_TRUE(vmas.ok()) << vmas.error().message();
  ASSERT_EQ(vmas->size(), 26u);
  EXPECT_EQ((*vmas)[7].start, 0x7fbcf1e00000u);
  EXPECT_EQ((*vmas)[7].end, 0x7fbcf2600000u);
}

TEST(Maps, MissingProcessIsVanished) {
  nb::testing::TempTree tree;
  auto vmas = read_process_vmas(tree.path("proc"), 12345);
  ASSERT_FALSE(vmas.ok());
  EXPECT_TRUE(vmas.error().vanished());
  EXPECT_NE(vmas.error().message().find("12345/numa_maps"), std::string::npos);
}

TEST(Maps, GarbageRangeIsAnError) {
  auto ranges = parse_maps("1000-2000 rw-p 0 0:0 0\n3000-2000 rw-p 0 0:0 0\n", "maps");
  ASSERT_FALSE(ranges.ok());
  EXPECT_NE(ranges.error().message().find("line 2"), std::string::npos);
}

}  // namespace
}  // namespace nb::actuator
