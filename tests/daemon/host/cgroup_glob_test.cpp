#include "daemon/host/cgroup_glob.hpp"

#include <gtest/gtest.h>

namespace nb::host {
namespace {

struct GlobCase {
  std::string glob;
  std::string path;
  bool matches;
};

// Without it gtest prints the struct's bytes, padding included (valgrind: uninitialised).
void PrintTo(const GlobCase& c, std::ostream* os) {
  *os << c.glob << " ~ " << c.path;
}

class CgroupGlob : public ::testing::TestWithParam<GlobCase> {};

TEST_P(CgroupGlob, MatchesWholePathsLevelByLevel) {
  GlobSet globs;
  globs.add(GetParam().glob, 7);
  const auto owners = globs.owners_matching(GetParam().path);
  EXPECT_EQ(!owners.empty(), GetParam().matches)
      << "glob " << GetParam().glob << " on " << GetParam().path;
  if (!owners.empty()) {
    EXPECT_EQ(owners, std::vector<std::size_t>{7});
  }
}

INSTANTIATE_TEST_SUITE_P(
    Table, CgroupGlob,
    ::testing::Values(GlobCase{"system.slice/*.service", "system.slice/sshd.service", true},
                      GlobCase{"system.slice/*.service", "system.slice/sshd.socket", false},
                      GlobCase{"system.slice/*.service", "system.slice/a/sshd.service",
                               false},  // * stays in a level
                      GlobCase{"system.slice/*.service", "sshd.service", false},
                      GlobCase{"system.slice/*.service", "system.slice", false},
                      GlobCase{"*", "a", true}, GlobCase{"*", "a/b", false},
                      GlobCase{"**/*.scope", "machine.slice/vm.scope", true},
                      GlobCase{"**/*.scope", "a/b/c/vm.scope", true},
                      GlobCase{"**/*.scope", "vm.scope", true},  // ** may match no level
                      GlobCase{"**/*.scope", "a/vm.scope/child", false},
                      GlobCase{"kubepods/**", "kubepods/burstable/pod1/c1", true},
                      GlobCase{"kubepods/**", "kubepods", true},
                      GlobCase{"kubepods/**", "other/burstable", false},
                      GlobCase{"a/**/b/**/c", "a/x/b/y/z/c", true},
                      GlobCase{"a/**/b/**/c", "a/b/c", true},
                      GlobCase{"a/**/b/**/c", "a/x/y/c", false}, GlobCase{"pod?", "pod1", true},
                      GlobCase{"pod?", "pod12", false}, GlobCase{"pod[0-9]", "pod7", true},
                      GlobCase{"pod[0-9]", "podx", false},
                      GlobCase{"/system.slice//a.service/", "system.slice/a.service", true},
                      GlobCase{"**", "", false},  // the root is never a container
                      GlobCase{"", "a", false}));

TEST(CgroupGlobSet, ReportsEveryOwnerOnceWhoseGlobMatches) {
  GlobSet globs;
  globs.add("system.slice/*", 0);
  globs.add("**/a.service", 1);
  globs.add("system.slice/a.*", 0);
  globs.add("user.slice/*", 2);
  EXPECT_EQ(globs.owners_matching("system.slice/a.service"), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(globs.owners_matching("user.slice/u"), (std::vector<std::size_t>{2}));
}

TEST(CgroupGlobSet, CanDescendOnlyWhileSomeGlobHasLevelsLeft) {
  GlobSet globs;
  globs.add("system.slice/*.service", 0);
  GlobSet::States next;
  std::vector<std::size_t> owners;
  globs.step(globs.start(), "system.slice", next, owners);
  EXPECT_TRUE(owners.empty());
  EXPECT_TRUE(globs.can_descend(next));
  GlobSet::States last;
  globs.step(next, "a.service", last, owners);
  EXPECT_EQ(owners, std::vector<std::size_t>{0});
  EXPECT_FALSE(globs.can_descend(last));
  globs.step(globs.start(), "user.slice", next, owners);
  EXPECT_FALSE(globs.can_descend(next));
}

}  // namespace
}  // namespace nb::host
