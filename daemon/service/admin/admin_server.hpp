#pragma once
// The admin socket: accepts Unix-socket connections, frames request lines, learns each peer's
// credentials, and hands requests to the command table. Everything runs on the io_context thread
// that owns the daemon's state. Limits: max_clients connections, max_request_bytes per line,
// idle_timeout without a request (watchers excepted), and a bounded output queue per connection
// so that a client that stops reading is dropped instead of growing the daemon.

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

struct AdminServerOptions {
  std::filesystem::path socket_path;
  unsigned socket_mode = 0660;
  std::string admin_group;
  int max_clients = 64;
  std::size_t max_request_bytes = 64 * 1024;
  Duration idle_timeout = std::chrono::seconds(60);
  std::filesystem::path proc_root = "/proc";
  std::size_t max_queued_bytes = 8 * 1024 * 1024;
  // systemd's socket (numabalancerd.socket): served as it is, its file left to systemd.
  std::optional<ActivatedSocket> activated;
};

// The socket's settings from [admin]; the peer checks read /proc under `proc_root`.
AdminServerOptions admin_server_options(const config::AdminConfig& config,
                                        const std::filesystem::path& proc_root);

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
  void set_limits(int max_clients, std::size_t max_request_bytes, Duration idle_timeout,
                  std::string admin_group);

  std::size_t connections() const;
  std::size_t watchers() const;

 private:
  class Connection;
  struct Shared;

  void accept_next();

  asio::io_context& io_;
  asio::local::stream_protocol::acceptor acceptor_;
  std::shared_ptr<Shared> shared_;
  bool owns_socket_file_ = false;
};

}  // namespace nb::service
