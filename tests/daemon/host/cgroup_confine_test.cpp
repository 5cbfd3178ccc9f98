// Cgroup paths typed by an operator stay beneath the memory controller's root: no "..", no
// absolute path elsewhere, no symbolic link out; with openat2 and with the walk that stands in for
// it on older kernels.

#include "daemon/host/cgroup_confine.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/support/temp_tree.hpp"

namespace nb::host {
namespace {

using ::testing::HasSubstr;

class CgroupConfine : public ::testing::TestWithParam<BeneathOpen> {
 protected:
  CgroupConfine() {
    tree.make_dir("cg/pods/a");
    tree.make_dir("secret/inside");
    // A link out of the tree and one that stays inside: both are refused.
    std::filesystem::create_directory_symlink(tree.path("secret"), tree.path("cg/escape"));
    std::filesystem::create_directory_symlink(tree.path("cg/pods"), tree.path("cg/link"));
  }

  Result<ConfinedCgroup> confine(const std::string& text) const {
    return confine_cgroup(root(), text, GetParam());
  }
  std::string refusal(const std::string& text) const {
    auto confined = confine(text);
    EXPECT_FALSE(confined.ok()) << text << " was accepted";
    return confined.ok() ? "" : confined.error().message();
  }
  std::filesystem::path root() const { return tree.path("cg"); }

  testing::TempTree tree;
};

TEST_P(CgroupConfine, RelativeAndAbsolutePathsBeneathTheRootAreAccepted) {
  for (const std::string& text : {std::string("pods/a"), std::string("./pods//a/"),
                                  root().string() + "/pods/a", root().string() + "/./pods/a/"}) {
    auto confined = confine(text);
    ASSERT_TRUE(confined.ok()) << text << ": " << confined.error().message();
    EXPECT_EQ(confined->relative, "pods/a") << text;
    EXPECT_EQ(confined->dir, root() / "pods/a") << text;
  }
  auto whole = confine(root().string());
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->relative, "");
  EXPECT_EQ(whole->dir, root());
}

TEST_P(CgroupConfine, ParentComponentIsRefusedWherever) {
  EXPECT_THAT(refusal("../secret"), HasSubstr("contains '..'"));
  EXPECT_THAT(refusal("pods/../../secret"), HasSubstr("contains '..'"));
  // Lexically this one stays inside, but ".." is refused as such.
  EXPECT_THAT(refusal("pods/a/.."), HasSubstr("contains '..'"));
  EXPECT_THAT(refusal(root().string() + "/../secret"), HasSubstr("contains '..'"));
}

TEST_P(CgroupConfine, AbsolutePathOutsideTheRootIsRefused) {
  EXPECT_THAT(refusal(tree.path("secret").string()),
              HasSubstr("is outside the memory cgroup root " + root().string()));
  EXPECT_THAT(refusal("/"), HasSubstr("is outside the memory cgroup root"));
  // A sibling whose name merely starts with the root's.
  tree.make_dir("cgx");
  EXPECT_THAT(refusal(tree.path("cgx").string()), HasSubstr("is outside the memory cgroup root"));
}

TEST_P(CgroupConfine, SymbolicLinksAreRefused) {
  EXPECT_THAT(refusal("escape"), HasSubstr("goes through a symbolic link"));
  EXPECT_THAT(refusal("escape/inside"), HasSubstr("goes through a symbolic link"));
  EXPECT_THAT(refusal(root().string() + "/escape/inside"),
              HasSubstr("goes through a symbolic link"));
  EXPECT_THAT(refusal("link/a"), HasSubstr("goes through a symbolic link"));
}

TEST_P(CgroupConfine, MissingCgroupIsNotFound) {
  auto missing = confine("pods/b");
  ASSERT_FALSE(missing.ok());
  EXPECT_TRUE(missing.error().vanished());
  EXPECT_THAT(missing.error().message(),
              HasSubstr("cgroup not found: " + (root() / "pods/b").string()));
  tree.make_file("cg/pods/file", "");
  EXPECT_FALSE(confine("pods/file").ok());
}

INSTANTIATE_TEST_SUITE_P(Ways, CgroupConfine,
                         ::testing::Values(BeneathOpen::openat2, BeneathOpen::walk),
                         [](const auto& info) {
                           return info.param == BeneathOpen::openat2 ? "Openat2" : "Walk";
                         });

}  // namespace
}  // namespace nb::host
