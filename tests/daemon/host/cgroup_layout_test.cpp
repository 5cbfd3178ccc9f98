#include "daemon/host/cgroup_layout.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>

#include "daemon/host/small_file.hpp"
#include "tests/daemon/host/host_fixture.hpp"

namespace nb::host {
namespace {

using ::testing::HasSubstr;

struct LayoutCase {
  std::string name;
  std::function<void(const nb::testing::TempTree&)> make_host;
  CgroupMode mode;
  std::string memory_root;
  std::optional<std::string> cpuset_root;
  std::optional<std::string> unified_root;
  std::string effective_cpus_file;
};

class CgroupLayoutDetection : public ::testing::TestWithParam<LayoutCase> {};

TEST_P(CgroupLayoutDetection, FindsTheMemoryHierarchyUnderTheHostRoot) {
  nb::testing::TempTree tree;
  const LayoutCase& expected = GetParam();
  expected.make_host(tree);

  auto layout = detect_cgroup_layout(tree.root());

  ASSERT_TRUE(layout.ok()) << layout.error().message();
  EXPECT_EQ(layout->mode, expected.mode);
  EXPECT_EQ(layout->memory_root, tree.path(expected.memory_root));
  EXPECT_EQ(layout->cpuset_root.has_value(), expected.cpuset_root.has_value());
  if (expected.cpuset_root && layout->cpuset_root) {
    EXPECT_EQ(*layout->cpuset_root, tree.path(*expected.cpuset_root));
  }
  EXPECT_EQ(layout->unified_root.has_value(), expected.unified_root.has_value());
  if (expected.unified_root && layout->unified_root) {
    EXPECT_EQ(*layout->unified_root, tree.path(*expected.unified_root));
  }
  EXPECT_EQ(effective_cpus_file(*layout), expected.effective_cpus_file);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, CgroupLayoutDetection,
    ::testing::Values(
        LayoutCase{"PureV2", nb::testing::make_v2_host, CgroupMode::v2, "sys/fs/cgroup",
                   "sys/fs/cgroup", "sys/fs/cgroup", "cpuset.cpus.effective"},
        LayoutCase{"Hybrid", nb::testing::make_hybrid_host, CgroupMode::hybrid,
                   "sys/fs/cgroup/memory", "sys/fs/cgroup/cpuset", "sys/fs/cgroup/unified",
                   "cpuset.effective_cpus"},
        LayoutCase{"PureV1", nb::testing::make_v1_host, CgroupMode::v1, "sys/fs/cgroup/memory",
                   "sys/fs/cgroup/cpuset", std::nullopt, "cpuset.effective_cpus"},
        LayoutCase{"V2WithoutCpusetController",
                   [](const nb::testing::TempTree& tree) {
                     nb::testing::make_v2_host(tree);
                     tree.make_file("sys/fs/cgroup/cgroup.controllers", "cpu io memory pids\n");
                   },
                   CgroupMode::v2, "sys/fs/cgroup", std::nullopt, "sys/fs/cgroup",
                   "cpuset.effective_cpus"},
        LayoutCase{"V1WithoutCpuset",
                   [](const nb::testing::TempTree& tree) {
                     tree.make_file("proc/self/mounts",
                                    "cgroup /cg/mem cgroup rw,memory,memory_recursiveprot 0 0\n");
                   },
                   CgroupMode::v1, "cg/mem", std::nullopt, std::nullopt, "cpuset.effective_cpus"}),
    [](const auto& info) { return info.param.name; });

TEST(CgroupLayout, ContainerDirIsUnderTheMemoryRoot) {
  CgroupLayout layout{.mode = CgroupMode::v2,
                      .memory_root = "/sys/fs/cgroup",
                      .cpuset_root = std::nullopt,
                      .unified_root = std::nullopt};
  EXPECT_EQ(layout.container_dir("system.slice/a.service"),
            "/sys/fs/cgroup/system.slice/a.service");
  EXPECT_EQ(layout.container_dir("/kubepods/pod1"), "/sys/fs/cgroup/kubepods/pod1");
}

TEST(CgroupLayout, ModesHaveNames) {
  EXPECT_EQ(to_string(CgroupMode::v2), "v2");
  EXPECT_EQ(to_string(CgroupMode::hybrid), "hybrid");
  EXPECT_EQ(to_string(CgroupMode::v1), "v1");
}

TEST(CgroupLayout, MissingMountsFileIsAnErrorNamingIt) {
  nb::testing::TempTree tree;
  auto layout = detect_cgroup_layout(tree.root());
  ASSERT_FALSE(layout.ok());
  EXPECT_EQ(layout.error().code, ENOENT);
  EXPECT_THAT(layout.error().message(), HasSubstr(tree.path("proc/self/mounts").string()));
}

// A captured /proc keeps proc/mounts; proc/self is a link into the process that captured it.
TEST(CgroupLayout, ATreeWithOnlyProcMountsIsRead) {
  nb::testing::TempTree tree;
  nb::testing::make_v2_host(tree);
  std::filesystem::rename(tree.path("proc/self/mounts"), tree.path("proc/mounts"));

  auto layout = detect_cgroup_layout(tree.root());

  ASSERT_TRUE(layout.ok()) << layout.error().message();
  EXPECT_EQ(layout->mode, CgroupMode::v2);
  EXPECT_EQ(layout->memory_root, tree.path("sys/fs/cgroup"));
}

TEST(CgroupLayout, ProcSelfMountsWinsWhenBothExist) {
  nb::testing::TempTree tree;
  nb::testing::make_v1_host(tree);
  tree.make_file("proc/mounts", "this is not a mount table\n");

  auto layout = detect_cgroup_layout(tree.root());

  ASSERT_TRUE(layout.ok()) << layout.error().message();
  EXPECT_EQ(layout->mode, CgroupMode::v1);
}

TEST(CgroupLayout, AProcMountsWithoutMemoryIsNamedInTheError) {
  nb::testing::TempTree tree;
  tree.make_file("proc/mounts", std::string(nb::testing::kCommonMounts));

  auto layout = detect_cgroup_layout(tree.root());

  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message(), HasSubstr(tree.path("proc/mounts").string()));
}

TEST(CgroupLayout, GarbageMountsFileIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("proc/self/mounts", "this is not a mount table\n");
  auto layout = detect_cgroup_layout(tree.root());
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message(), HasSubstr("not a mounts line"));
}

TEST(CgroupLayout, NoMemoryHierarchyIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("proc/self/mounts", std::string(nb::testing::kCommonMounts) +
                                         "cgroup /sys/fs/cgroup/cpuset cgroup rw,cpuset 0 0\n");
  auto layout = detect_cgroup_layout(tree.root());
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message(), HasSubstr("memory controller"));
}

TEST(CgroupLayout, V2WithoutTheMemoryControllerIsAnError) {
  nb::testing::TempTree tree;
  nb::testing::make_v2_host(tree);
  tree.make_file("sys/fs/cgroup/cgroup.controllers", "cpu io pids\n");
  auto layout = detect_cgroup_layout(tree.root());
  ASSERT_FALSE(layout.ok());
  EXPECT_THAT(layout.error().message(), HasSubstr("memory controller is not available"));
}

TEST(Mounts, DecodesOctalEscapesAndSplitsOptions) {
  auto mounts = parse_mounts("cgroup /mnt/my\\040cgroups cgroup rw,memory 0 0\n", "mounts");
  ASSERT_TRUE(mounts.ok()) << mounts.error().message();
  ASSERT_EQ(mounts->size(), 1u);
  EXPECT_EQ((*mounts)[0].mount_point, "/mnt/my cgroups");
  EXPECT_EQ((*mounts)[0].fstype, "cgroup");
  EXPECT_EQ((*mounts)[0].options, (std::vector<std::string>{"rw", "memory"}));
}

TEST(Mounts, BindMountOfTheV2HierarchyElsewhereDoesNotHideTheHostOne) {
  const std::vector<Mount> mounts = {
      Mount{.fstype = "cgroup2", .mount_point = "/var/lib/container/cg", .options = {"rw"}},
      Mount{.fstype = "cgroup2", .mount_point = "/sys/fs/cgroup", .options = {"rw"}},
  };
  nb::testing::TempTree tree;
  tree.make_file("sys/fs/cgroup/cgroup.controllers", "memory\n");
  auto layout = layout_from_mounts(tree.root(), mounts);
  ASSERT_TRUE(layout.ok()) << layout.error().message();
  EXPECT_EQ(layout->memory_root, tree.path("sys/fs/cgroup"));
}

// The live host: libcgroup's discovery must agree with the mount table it replaces.
TEST(CgroupLayoutOnThisHost, LibcgroupAgreesWithTheMountTable) {
  auto from_library = libcgroup_mounts();
  if (!from_library || !from_library->memory) {
    GTEST_SKIP() << "libcgroup cannot initialise or finds no memory controller here";
  }
  auto text = read_small_file("/proc/self/mounts");
  ASSERT_TRUE(text.ok()) << text.error().message();
  auto mounts = parse_mounts(*text, "/proc/self/mounts");
  ASSERT_TRUE(mounts.ok()) << mounts.error().message();
  auto from_mounts = layout_from_mounts("/", *mounts);
  ASSERT_TRUE(from_mounts.ok()) << from_mounts.error().message();

  auto layout = detect_cgroup_layout("/");

  ASSERT_TRUE(layout.ok()) << layout.error().message();
  EXPECT_EQ(cgroup_discovery_source("/"), "libcgroup");
  EXPECT_EQ(layout->memory_root, *from_library->memory);
  EXPECT_EQ(layout->memory_root, from_mounts->memory_root);
  EXPECT_EQ(layout->mode, from_mounts->mode);
  EXPECT_TRUE(std::filesystem::exists(layout->memory_root / "memory.numa_stat") ||
              layout->mode == CgroupMode::v2);
}

}  // namespace
}  // namespace nb::host
