#include "daemon/service/admin/peer_credentials.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

TEST(SupplementaryGroups, ReadFromTheGroupsLine) {
  testing::TempTree tree;
  tree.make_file("proc/42/status", "Name:\tx\nUid:\t1000\t1000\t1000\t1000\nGroups:\t4 27 1001 \n");
  auto groups = read_supplementary_groups(tree.path("proc"), 42);
  ASSERT_TRUE(groups.ok());
  EXPECT_EQ(groups.value(), (std::vector<gid_t>{4, 27, 1001}));
}

TEST(SupplementaryGroups, EmptyGroupsLineIsNoGroups) {
  testing::TempTree tree;
  tree.make_file("proc/42/status", "Groups:\t\n");
  auto groups = read_supplementary_groups(tree.path("proc"), 42);
  ASSERT_TRUE(groups.ok());
  EXPECT_TRUE(groups->empty());
}

TEST(SupplementaryGroups, VanishedProcessIsEnoent) {
  testing::TempTree tree;
  auto groups = read_supplementary_groups(tree.path("proc"), 42);
  ASSERT_FALSE(groups.ok());
  EXPECT_TRUE(groups.error().vanished());
}

TEST(SupplementaryGroups, StatusWithoutGroupsIsAnError) {
  testing::TempTree tree;
  tree.make_file("proc/42/status", "Name:\tx\n");
  EXPECT_FALSE(read_supplementary_groups(tree.path("proc"), 42).ok());
}

struct AuthCase {
  const char* name;
  PeerCredentials peer;
  std::optional<gid_t> admin_group;
  bool allowed;
};

class MayMutate : public ::testing::TestWithParam<AuthCase> {};

TEST_P(MayMutate, OnlyRootAndAdminGroupMembers) {
  EXPECT_EQ(may_mutate(GetParam().peer, GetParam().admin_group), GetParam().allowed);
}

INSTANTIATE_TEST_SUITE_P(
    Peers, MayMutate,
    ::testing::Values(AuthCase{"root", {1, 0, 0, {}}, std::nullopt, true},
                      AuthCase{"primary_group", {1, 1000, 900, {}}, 900, true},
                      AuthCase{"supplementary_group", {1, 1000, 1000, {5, 900}}, 900, true},
                      AuthCase{"other_groups", {1, 1000, 1000, {5, 6}}, 900, false},
                      AuthCase{
                          "no_admin_group_configured", {1, 1000, 900, {900}}, std::nullopt, false}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(PeerCredentials, SocketPairReportsOurOwnProcess) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  auto peer = peer_credentials(fds[0], "/proc");
  ::close(fds[0]);
  ::close(fds[1]);
  ASSERT_TRUE(peer.ok());
  EXPECT_EQ(peer->pid, ::getpid());
  EXPECT_EQ(peer->uid, ::getuid());
  EXPECT_EQ(peer->gid, ::getgid());
}

TEST(LookupGroup, KnowsRootAndNotNonsense) {
  EXPECT_EQ(lookup_group("root"), gid_t{0});
  EXPECT_FALSE(lookup_group("no-such-group-for-numabalancer").has_value());
  EXPECT_FALSE(lookup_group("").has_value());
}

}  // namespace
}  // namespace nb::service
