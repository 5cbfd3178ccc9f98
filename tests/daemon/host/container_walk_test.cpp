#include "daemon/host/container_walk.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "tests/support/temp_tree.hpp"

namespace nb::host {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::UnorderedElementsAre;

config::PoolConfig pool(std::string name, std::vector<std::string> globs) {
  return config::PoolConfig{.name = std::move(name), .cgroups = std::move(globs), .nodes = {}};
}

// Container id → pool name, as the walk found them.
struct Found {
  std::map<std::string, std::string> containers;
  WalkCounts counts;
};

Found walk(const nb::testing::TempTree& tree, const std::vector<config::PoolConfig>& pools) {
  Found found;
  auto counts = walk_containers(tree.root(), pools, [&](const FoundContainer& container) {
    found.containers[std::string(container.id)] = pools[container.pool].name;
  });
  EXPECT_TRUE(counts.ok()) << counts.error().message();
  if (counts.ok()) {
    found.counts = std::move(counts).value();
  }
  return found;
}

void make_dirs(const nb::testing::TempTree& tree, std::initializer_list<std::string_view> dirs) {
  for (std::string_view dir : dirs) {
    tree.make_dir(dir);
  }
}

TEST(ContainerWalk, OneLevelGlobFindsTheCgroupsItNames) {
  nb::testing::TempTree tree;
  make_dirs(tree, {"system.slice/a.service", "system.slice/b.service", "system.slice/c.socket",
                   "system.slice/a.service/child", "user.slice/u.service"});
  tree.make_file("system.slice/d.service", "a file, not a cgroup");

  Found found = walk(tree, {pool("share", {"system.slice/*.service"})});

  EXPECT_THAT(found.containers, ElementsAre(Pair("system.slice/a.service", "share"),
                                            Pair("system.slice/b.service", "share")));
  // The walk never lists below a.service or user.slice: no glob can match there.
  EXPECT_EQ(found.counts.cgroups_seen, 5u);
}

TEST(ContainerWalk, DoubleStarCrossesLevelsAndTheDeepestMatchIsTheContainer) {
  nb::testing::TempTree tree;
  make_dirs(tree, {"kubepods/burstable/pod1/c1", "kubepods/burstable/pod1/c2",
                   "kubepods/besteffort/pod2", "system.slice/x.service"});

  Found found = walk(tree, {pool("share", {"kubepods/**"})});

  // kubepods, burstable and pod1 match too, but each has matched descendants.
  EXPECT_THAT(found.containers, ElementsAre(Pair("kubepods/besteffort/pod2", "share"),
                                            Pair("kubepods/burstable/pod1/c1", "share"),
                                            Pair("kubepods/burstable/pod1/c2", "share")));
}

TEST(ContainerWalk, AncestorMatchedByOnePoolYieldsToDescendantOfAnother) {
  nb::testing::TempTree tree;
  make_dirs(tree, {"system.slice/batch.service", "system.slice/web.service", "other.slice"});

  Found found = walk(tree, {pool("share", {"system.slice", "other.slice"}),
                            pool("reclaim", {"system.slice/batch.service"})});

  EXPECT_THAT(found.containers, ElementsAre(Pair("other.slice", "share"),
                                            Pair("system.slice/batch.service", "reclaim")));
  EXPECT_THAT(found.counts.conflicts, IsEmpty());
}

TEST(ContainerWalk, CgroupMatchedByTwoPoolsIsSkippedAndNamed) {
  nb::testing::TempTree tree;
  make_dirs(tree, {"system.slice/a.service", "system.slice/b.service"});

  Found found =
      walk(tree, {pool("share", {"system.slice/*.service"}), pool("reclaim", {"**/a.service"})});

  EXPECT_THAT(found.containers, ElementsAre(Pair("system.slice/b.service", "share")));
  EXPECT_THAT(found.counts.conflicts,
              ElementsAre("cgroup system.slice/a.service is matched by pools share and reclaim"));
}

TEST(ContainerWalk, CgroupRemovedDuringTheWalkIsCountedNotAnError) {
  nb::testing::TempTree tree;
  for (int i = 0; i < 10; ++i) {
    tree.make_dir("d" + std::to_string(i) + "/c");
  }
  // The first container found removes every other top-level cgroup: the walk has listed them
  // already, so it meets each of them gone.
  std::size_t containers = 0;
  auto counts =
      walk_containers(tree.root(), {pool("share", {"**"})}, [&](const FoundContainer& container) {
        if (containers++ == 0) {
          for (int i = 0; i < 10; ++i) {
            const std::string dir = "d" + std::to_string(i);
            if (!container.id.starts_with(dir + "/")) {
              tree.remove(dir);
            }
          }
        }
      });

  ASSERT_TRUE(counts.ok()) << counts.error().message();
  EXPECT_EQ(containers, 1u);
  EXPECT_EQ(counts->vanished, 9u);
}

TEST(ContainerWalk, MissingRootIsAnError) {
  nb::testing::TempTree tree;
  auto counts =
      walk_containers(tree.path("absent"), {pool("share", {"*"})}, [](const FoundContainer&) {});
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.error().code, ENOENT);
}

TEST(ContainerWalk, RootThatIsAFileIsAnError) {
  nb::testing::TempTree tree;
  tree.make_file("file", "x");
  auto counts =
      walk_containers(tree.path("file"), {pool("share", {"*"})}, [](const FoundContainer&) {});
  ASSERT_FALSE(counts.ok());
  EXPECT_EQ(counts.error().code, ENOTDIR);
}

TEST(PoolConflicts, NameTheCgroupAndEveryPoolMatchingIt) {
  const std::vector<config::PoolConfig> pools = {pool("share", {"system.slice/*"}),
                                                 pool("reclaim", {"**/batch.service"}),
                                                 pool("batch", {"system.slice/batch.*"})};
  EXPECT_THAT(find_pool_conflicts(pools, {"system.slice/batch.service", "system.slice/web.service",
                                          "user.slice/batch.service"}),
              ElementsAre("cgroup system.slice/batch.service is matched by pools share, "
                          "reclaim and batch"));
}

TEST(PoolConflicts, FoundOnATreeToo) {
  nb::testing::TempTree tree;
  make_dirs(tree, {"system.slice/batch.service", "system.slice/web.service"});
  auto conflicts = find_pool_conflicts(
      tree.root(), {pool("share", {"system.slice/*"}), pool("reclaim", {"**/batch.service"})});
  ASSERT_TRUE(conflicts.ok()) << conflicts.error().message();
  EXPECT_THAT(*conflicts, UnorderedElementsAre(
                              "cgroup system.slice/batch.service is matched by pools share and "
                              "reclaim"));
}

}  // namespace
}  // namespace nb::host
