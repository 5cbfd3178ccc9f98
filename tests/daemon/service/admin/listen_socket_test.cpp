// The admin socket's file is born with [admin] socket_mode (never wider, whatever the umask);
// an activated socket is served as systemd made it, and left to systemd on stop.

#include "daemon/service/admin/listen_socket.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include "daemon/service/admin/admin_server.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

unsigned mode_of(const std::filesystem::path& path) {
  struct stat info {};
  EXPECT_EQ(::stat(path.c_str(), &info), 0) << path;
  return info.st_mode & 07777;
}

bool listening(int fd) {
  int value = 0;
  socklen_t length = sizeof value;
  return ::getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0 && value != 0;
}

// What numabalancerd.socket hands over: a listening socket whose file systemd created.
int systemd_socket(const std::filesystem::path& path, unsigned mode) {
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof address.sun_path - 1);
  EXPECT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  EXPECT_EQ(::listen(fd, 4), 0);
  EXPECT_EQ(::chmod(path.c_str(), mode), 0);
  return fd;
}

class UmaskGuard {
 public:
  UmaskGuard() : saved_(::umask(022)) { ::umask(saved_); }
  ~UmaskGuard() { ::umask(saved_); }

 private:
  mode_t saved_;
};

// Right after bind, before any chmod could run, the file is exactly socket_mode: with umask 0
// a plain bind makes it 0777, which anyone could connect to until a chmod narrowed it.
TEST(ListenSocket, TheBoundFileHasSocketModeWhateverTheUmask) {
  UmaskGuard guard;
  testing::TempTree tree;
  int n = 0;
  for (mode_t umask : {mode_t{0}, mode_t{022}, mode_t{0777}}) {
    for (unsigned mode : {0660u, 0600u, 0666u}) {
      auto path = tree.path("admin" + std::to_string(n++) + ".sock");
      ::umask(umask);
      auto fd = bind_unix_socket(path, mode);
      ASSERT_TRUE(fd.ok()) << fd.error().message();
      EXPECT_EQ(mode_of(path), mode) << std::oct << "umask " << umask << " mode " << mode;
      EXPECT_EQ(::umask(umask), umask) << "the caller's umask is back";
      ::close(*fd);
    }
  }
}

TEST(ListenSocket, BindFailureRestoresTheUmaskAndNamesThePath) {
  UmaskGuard guard;
  testing::TempTree tree;
  auto path = tree.make_file("taken", "");
  ::umask(027);
  auto fd = bind_unix_socket(path, 0660);
  EXPECT_EQ(::umask(027), 027);
  ASSERT_FALSE(fd.ok());
  EXPECT_EQ(fd.error().code, EADDRINUSE);
  EXPECT_NE(fd.error().message().find(path.string()), std::string::npos);
}

TEST(ListenSocket, WithoutActivationItBindsListensSetsTheGroupAndOwnsTheFile) {
  testing::TempTree tree;
  gid_t gid = ::geteuid() == 0 ? 65534 : ::getegid();
  ListenSocketSpec spec{tree.path("run/admin.sock"), 0640, gid, "admins", std::nullopt};
  auto socket = open_listen_socket(spec);
  ASSERT_TRUE(socket.ok()) << socket.error().message();
  EXPECT_TRUE(socket->owns_file);
  EXPECT_TRUE(listening(socket->fd));
  EXPECT_EQ(mode_of(spec.path), 0640u);
  struct stat info {};
  ASSERT_EQ(::stat(spec.path.c_str(), &info), 0);
  EXPECT_EQ(info.st_gid, gid);
  ::close(socket->fd);
}

TEST(ListenSocket, AnActivatedSocketIsServedAsSystemdMadeIt) {
  testing::TempTree tree;
  auto systemd_path = tree.path("systemd.sock");
  int fd = systemd_socket(systemd_path, 0666);
  ListenSocketSpec spec{tree.path("admin.sock"), 0600, ::getegid(), "admins",
                        ActivatedSocket{fd, systemd_path}};
  auto socket = open_listen_socket(spec);
  ASSERT_TRUE(socket.ok()) << socket.error().message();
  EXPECT_EQ(socket->fd, fd);
  EXPECT_FALSE(socket->owns_file);
  EXPECT_EQ(mode_of(systemd_path), 0666u) << "SocketMode= decides, not socket_mode";
  EXPECT_FALSE(std::filesystem::exists(spec.path)) << "nothing bound at [admin] socket";
  ::close(fd);
}

TEST(ListenSocket, TheServerRemovesOnlyTheFileItBound) {
  testing::TempTree tree;
  asio::io_context io;
  CommandTable table;

  AdminServerOptions own;
  own.socket_path = tree.path("own.sock");
  own.socket_mode = 0600;
  AdminServer bound(io, table, own);
  ASSERT_TRUE(bound.start().ok());
  EXPECT_EQ(mode_of(own.socket_path), 0600u);
  bound.stop();
  EXPECT_FALSE(std::filesystem::exists(own.socket_path));

  AdminServerOptions activated;
  activated.socket_path = tree.path("systemd.sock");
  activated.activated =
      ActivatedSocket{systemd_socket(activated.socket_path, 0660), activated.socket_path};
  AdminServer adopted(io, table, activated);
  ASSERT_TRUE(adopted.start().ok());
  adopted.stop();
  EXPECT_TRUE(std::filesystem::exists(activated.socket_path)) << "RemoveOnStop= is systemd's";
}

}  // namespace
}  // namespace nb::service
