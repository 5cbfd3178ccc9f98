#include "daemon/service/admin/peer_credentials.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>

namespace nb::service {
namespace {

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

TEST(PeerCredentials, SocketPairReportsOurOwnProcessAndGroups) {
  int fds[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
  auto peer = peer_credentials(fds[0]);
  ::close(fds[0]);
  ::close(fds[1]);
  ASSERT_TRUE(peer.ok()) << peer.error().message();
  EXPECT_EQ(peer->pid, ::getpid());
  EXPECT_EQ(peer->uid, ::getuid());
  EXPECT_EQ(peer->gid, ::getgid());
  std::vector<gid_t> ours(static_cast<std::size_t>(::getgroups(0, nullptr)));
  ours.resize(static_cast<std::size_t>(::getgroups(static_cast<int>(ours.size()), ours.data())));
  auto theirs = peer->groups;
  std::sort(ours.begin(), ours.end());
  std::sort(theirs.begin(), theirs.end());
  EXPECT_EQ(theirs, ours);
}

TEST(PeerCredentials, NotASocketIsAnError) {
  EXPECT_FALSE(peer_credentials(-1).ok());
  EXPECT_FALSE(peer_groups(-1).ok());
}

TEST(LookupGroup, KnowsRootAndNotNonsense) {
  EXPECT_EQ(lookup_group("root"), gid_t{0});
  EXPECT_FALSE(lookup_group("no-such-group-for-numabalancer").has_value());
  EXPECT_FALSE(lookup_group("").has_value());
}

}  // namespace
}  // namespace nb::service
