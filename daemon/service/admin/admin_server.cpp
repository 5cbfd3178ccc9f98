#include "daemon/service/admin/admin_server.hpp"

#include <spdlog/spdlog.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "daemon/service/admin/admin_connection.hpp"
#include "daemon/service/admin/close_on_exec.hpp"
#include "daemon/service/admin/listen_socket.hpp"
#include "daemon/service/admin/peer_credentials.hpp"
#include "daemon/service/instance_lock.hpp"

namespace nb::service {

AdminServerOptions admin_server_options(const config::AdminConfig& config) {
  AdminServerOptions options;
  options.socket_path = config.socket;
  options.socket_mode = config.socket_mode;
  options.admin_group = config.admin_group;
  options.max_clients = config.max_clients;
  options.max_watchers = config.max_watchers;
  options.max_request_bytes = static_cast<std::size_t>(config.max_request_bytes);
  options.idle_timeout = config.idle_timeout;
  return options;
}

AdminServer::AdminServer(asio::io_context& io, const CommandTable& table,
                         AdminServerOptions options)
    : io_(io),
      acceptor_(io),
      accept_retry_(io),
      shared_(std::make_shared<AdminShared>(
          AdminShared{table, std::move(options), std::nullopt, {}, 0, false})) {
  shared_->admin_gid = lookup_group(shared_->options.admin_group);
}

AdminServer::~AdminServer() {
  stop();
}

Status AdminServer::start() {
  const auto& options = shared_->options;
  auto socket = open_listen_socket(ListenSocketSpec{options.socket_path, options.socket_mode,
                                                    shared_->admin_gid, options.admin_group,
                                                    options.activated});
  if (!socket) {
    return socket.error();
  }
  asio::error_code error;
  acceptor_.assign(asio::local::stream_protocol(), socket->fd, error);
  if (error) {
    ::close(socket->fd);
    return make_error(error.value(), "adopt admin socket " + options.socket_path.string());
  }
  owns_socket_file_ = socket->owns_file;
  shared_->stopped = false;
  accept_next();
  return Ok{};
}

// Accepts with accept4 rather than Asio's accept, which leaves the new descriptor inheritable
// until a later fcntl; the listener, however start() came by it, is marked here.
void AdminServer::accept_next() {
  asio::error_code error;
  acceptor_.non_blocking(true, error);
  if (auto marked = set_close_on_exec(acceptor_.native_handle()); !marked) {
    spdlog::warn("admin: {}", marked.error().message());
  }
  acceptor_.async_wait(
      asio::socket_base::wait_read, [this, shared = shared_](asio::error_code error) {
        if (shared->stopped || error == asio::error::operation_aborted) {
          return;
        }
        int fd = error ? -1
                       : ::accept4(acceptor_.native_handle(), nullptr, nullptr,
                                   SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0) {
          asio::local::stream_protocol::socket socket(io_);
          asio::error_code assigned;
          socket.assign(asio::local::stream_protocol(), fd, assigned);
          if (assigned) {
            ::close(fd);
          } else {
            accepted(std::move(socket));
          }
        } else if (error || (errno != EAGAIN && errno != EINTR && errno != ECONNABORTED)) {
          // Out of descriptors, typically: wait instead of spinning on a listener that stays
          // readable.
          spdlog::warn("admin: accept failed: {}",
                       error ? error.message() : std::string(std::strerror(errno)));
          accept_retry_.expires_after(std::chrono::milliseconds(100));
          accept_retry_.async_wait([this, shared](asio::error_code waited) {
            if (!waited && !shared->stopped) {
              accept_next();
            }
          });
          return;
        }
        accept_next();
      });
}

void AdminServer::accepted(asio::local::stream_protocol::socket socket) {
  bool admin = false;
  std::optional<PeerCredentials> caller;
  if (auto peer = peer_credentials(socket.native_handle())) {
    admin = may_mutate(peer.value(), shared_->admin_gid);
    caller = std::move(peer.value());
  } else {
    spdlog::warn("admin: {}; the client may only read", peer.error().message());
  }
  auto connection =
      std::make_shared<AdminConnection>(std::move(socket), shared_, std::move(caller), admin);
  int max_clients = shared_->options.max_clients;
  int limit = max_clients + (admin ? kAdminReservedSlots : 0);
  shared_->connections.insert(connection);
  if (static_cast<int>(shared_->connections.size()) > limit) {
    connection->refuse(wire::to_line(
        wire::failure(nullptr, wire::ErrorCode::busy,
                      "too many admin connections (max_clients = " + std::to_string(max_clients) +
                          (admin ? " and " + std::to_string(kAdminReservedSlots) +
                                       " kept for root and the admin group)"
                                 : ")"))));
  } else {
    connection->start();
  }
}

void AdminServer::stop() {
  if (shared_->stopped) {
    return;
  }
  shared_->stopped = true;
  asio::error_code ignored;
  bool was_open = acceptor_.is_open();
  acceptor_.close(ignored);
  accept_retry_.cancel();
  auto connections = shared_->connections;
  for (const auto& connection : connections) {
    connection->close();
  }
  if (was_open && owns_socket_file_) {
    std::error_code removed;
    std::filesystem::remove(shared_->options.socket_path, removed);
  }
}

void AdminServer::broadcast(const wire::Event& event) {
  std::string line = wire::to_line(event);
  auto connections = shared_->connections;
  for (const auto& connection : connections) {
    if (connection->watching()) {
      connection->send_event(line);
    }
  }
}

void AdminServer::set_limits(const config::AdminConfig& config) {
  auto& options = shared_->options;
  options.max_clients = config.max_clients;
  options.max_watchers = config.max_watchers;
  options.max_request_bytes = static_cast<std::size_t>(config.max_request_bytes);
  options.idle_timeout = config.idle_timeout;
  options.admin_group = config.admin_group;
  shared_->admin_gid = lookup_group(options.admin_group);
}

std::size_t AdminServer::connections() const {
  return shared_->connections.size();
}

std::size_t AdminServer::watchers() const {
  return shared_->watchers();
}

std::size_t AdminServer::queued_bytes() const {
  return shared_->queued_bytes;
}

Result<std::unique_ptr<AdminServer>> open_admin_server(asio::io_context& io,
                                                       const CommandTable& table,
                                                       const config::AdminConfig& config,
                                                       std::optional<ActivatedSocket> activated) {
  // An activated socket's file is systemd's and live: only a socket of our own can be stale.
  if (!activated) {
    if (auto removed = remove_stale_socket(config.socket); !removed) {
      return removed.error();
    }
  }
  auto options = admin_server_options(config);
  options.activated = std::move(activated);
  auto server = std::make_unique<AdminServer>(io, table, std::move(options));
  if (auto started = server->start(); !started) {
    return started.error();
  }
  return server;
}

}  // namespace nb::service
