#pragma once
// The admin socket: accepts Unix-socket connections, frames request lines, learns each peer's
// credentials, and hands requests to the command table. Everything runs on the io_context thread
// that owns the daemon's state. Limits: max_clients connections, plus kAdminReservedSlots that
// only root and the admin group may take, so that no crowd of ordinary clients locks them out;
// max_watchers connections that ran `watch`; max_request_bytes per line; idle_timeout without a
// request (watchers excepted); and output bounded per connection and across connections (see
// admin_connection.hpp). Every descriptor it makes is close-on-exec.

#include <asio.hpp>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "base/result.hpp"
#include "base/units.hpp"
#include "daemon/config/config.hpp"
#include "daemon/service/admin/command_table.hpp"
#include "daemon/service/socket_activation.hpp"
#include "daemon/wire/protocol.hpp"

namespace nb::service {

inline constexpr int kAdminReservedSlots = 4;

struct AdminServerOptions {
  std::filesystem::path socket_path;
  unsigned socket_mode = 0660;
  std::string admin_group;
  int max_clients = 64;
  int max_watchers = 16;
  std::size_t max_request_bytes = 64 * 1024;
  Duration idle_timeout = std::chrono::seconds(60);
  std::size_t max_queued_bytes = 8 * 1024 * 1024;         // per connection
  std::size_t max_total_queued_bytes = 64 * 1024 * 1024;  // across connections
  // systemd's socket (numabalancerd.socket): served as it is, its file left to systemd.
  std::optional<ActivatedSocket> activated;
};

// The socket's settings from [admin].
AdminServerOptions admin_server_options(const config::AdminConfig& config);

class AdminConnection;
struct AdminShared;

class AdminServer {
 public:
  AdminServer(asio::io_context& io, const CommandTable& table, AdminServerOptions options);
  ~AdminServer();
  AdminServer(const AdminServer&) = delete;
  AdminServer& operator=(const AdminServer&) = delete;

  // Adopts the activated socket, or binds and listens; the path must be free (see
  // remove_stale_socket).
  Status start();
  // Stops accepting, closes every connection and removes the socket file it bound.
  void stop();

  // Sends an event line to every connection that ran `watch`.
  void broadcast(const wire::Event& event);

  // Limits from a reloaded config apply to new requests and connections.
  void set_limits(const config::AdminConfig& config);

  std::size_t connections() const;
  std::size_t watchers() const;
  // Replies and events written to no client yet, across connections.
  std::size_t queued_bytes() const;

 private:
  void accept_next();
  void accepted(asio::local::stream_protocol::socket socket);

  asio::io_context& io_;
  asio::local::stream_protocol::acceptor acceptor_;
  asio::steady_timer accept_retry_;
  std::shared_ptr<AdminShared> shared_;
  bool owns_socket_file_ = false;
};

// The daemon's admin socket from [admin], started: systemd's activated socket when there is one,
// else a fresh one at `config.socket` after a stale socket of a crashed run is removed.
Result<std::unique_ptr<AdminServer>> open_admin_server(asio::io_context& io,
                                                       const CommandTable& table,
                                                       const config::AdminConfig& config,
                                                       std::optional<ActivatedSocket> activated);

}  // namespace nb::service
