#include "daemon/service/admin/admin_server.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <array>
#include <deque>
#include <set>

#include "daemon/service/admin/line_framer.hpp"
#include "daemon/service/admin/listen_socket.hpp"
#include "daemon/service/admin/peer_credentials.hpp"

namespace nb::service {

AdminServerOptions admin_server_options(const config::AdminConfig& config,
                                        const std::filesystem::path& proc_root) {
  AdminServerOptions options;
  options.socket_path = config.socket;
  options.socket_mode = config.socket_mode;
  options.admin_group = config.admin_group;
  options.max_clients = config.max_clients;
  options.max_request_bytes = static_cast<std::size_t>(config.max_request_bytes);
  options.idle_timeout = config.idle_timeout;
  options.proc_root = proc_root;
  return options;
}

struct AdminServer::Shared {
  const CommandTable& table;
  AdminServerOptions options;
  std::optional<gid_t> admin_gid;
  std::set<std::shared_ptr<Connection>> connections;
  bool stopped = false;
};

class AdminServer::Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(asio::local::stream_protocol::socket socket, std::shared_ptr<Shared> shared,
             bool caller_is_admin)
      : socket_(std::move(socket)),
        timer_(socket_.get_executor()),
        shared_(std::move(shared)),
        framer_(shared_->options.max_request_bytes),
        caller_is_admin_(caller_is_admin) {}

  void start() {
    arm_idle_timer();
    read_next();
  }

  void send(std::string line) {
    if (closed_) {
      return;
    }
    queued_bytes_ += line.size();
    if (queued_bytes_ > shared_->options.max_queued_bytes) {
      spdlog::warn("admin: dropping a client that does not read its replies");
      close();
      return;
    }
    outbox_.push_back(std::move(line));
    if (outbox_.size() == 1) {
      write_next();
    }
  }

  void close() {
    if (closed_) {
      return;
    }
    closed_ = true;
    asio::error_code ignored;
    timer_.cancel();
    socket_.shutdown(asio::socket_base::shutdown_both, ignored);
    socket_.close(ignored);
    shared_->connections.erase(shared_from_this());
  }

  bool watching() const { return watching_; }

 private:
  void read_next() {
    socket_.async_read_some(asio::buffer(buffer_), [self = shared_from_this()](
                                                       asio::error_code error, std::size_t size) {
      if (error) {
        self->close();
        return;
      }
      self->arm_idle_timer();
      for (auto& frame : self->framer_.feed(std::string_view(self->buffer_.data(), size))) {
        self->answer(frame);
        if (self->closed_) {
          return;
        }
      }
      self->read_next();
    });
  }

  void answer(const Frame& frame) {
    if (frame.oversized) {
      send(wire::to_line(wire::failure(nullptr, wire::ErrorCode::too_large,
                                       "request line longer than " +
                                           std::to_string(shared_->options.max_request_bytes) +
                                           " bytes")));
      return;
    }
    CommandContext context{caller_is_admin_, false};
    auto response = shared_->table.handle_line(frame.line, context);
    send(wire::to_line(response));
    if (context.start_watching && response.ok()) {
      watching_ = true;
      timer_.cancel();
    }
  }

  void write_next() {
    asio::async_write(socket_, asio::buffer(outbox_.front()),
                      [self = shared_from_this()](asio::error_code error, std::size_t) {
                        if (error) {
                          self->close();
                          return;
                        }
                        self->queued_bytes_ -= self->outbox_.front().size();
                        self->outbox_.pop_front();
                        if (!self->outbox_.empty() && !self->closed_) {
                          self->write_next();
                        }
                      });
  }

  void arm_idle_timer() {
    if (watching_ || closed_) {
      return;
    }
    timer_.expires_after(shared_->options.idle_timeout);
    timer_.async_wait([weak = weak_from_this()](asio::error_code error) {
      auto self = weak.lock();
      if (!error && self && !self->watching_) {
        self->close();
      }
    });
  }

  asio::local::stream_protocol::socket socket_;
  asio::steady_timer timer_;
  std::shared_ptr<Shared> shared_;
  LineFramer framer_;
  bool caller_is_admin_;
  bool watching_ = false;
  bool closed_ = false;
  std::array<char, 8192> buffer_{};
  std::deque<std::string> outbox_;
  std::size_t queued_bytes_ = 0;
};

AdminServer::AdminServer(asio::io_context& io, const CommandTable& table,
                         AdminServerOptions options)
    : io_(io),
      acceptor_(io),
      shared_(std::make_shared<Shared>(Shared{table, std::move(options), std::nullopt, {}})) {
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

void AdminServer::accept_next() {
  acceptor_.async_accept([this, shared = shared_](asio::error_code error,
                                                  asio::local::stream_protocol::socket socket) {
    if (shared->stopped || error == asio::error::operation_aborted) {
      return;
    }
    if (!error) {
      bool admin = false;
      if (auto peer = peer_credentials(socket.native_handle(), shared->options.proc_root)) {
        admin = may_mutate(peer.value(), shared->admin_gid);
      }
      auto connection = std::make_shared<Connection>(std::move(socket), shared, admin);
      if (static_cast<int>(shared->connections.size()) >= shared->options.max_clients) {
        shared->connections.insert(connection);
        connection->send(
            wire::to_line(wire::failure(nullptr, wire::ErrorCode::busy,
                                        "too many admin connections (max_clients = " +
                                            std::to_string(shared->options.max_clients) + ")")));
        // Let the refusal reach the client before the close.
        asio::post(io_, [connection] { connection->close(); });
      } else {
        shared->connections.insert(connection);
        connection->start();
      }
    } else {
      spdlog::warn("admin: accept failed: {}", error.message());
    }
    accept_next();
  });
}

void AdminServer::stop() {
  if (shared_->stopped) {
    return;
  }
  shared_->stopped = true;
  asio::error_code ignored;
  bool was_open = acceptor_.is_open();
  acceptor_.close(ignored);
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
      connection->send(line);
    }
  }
}

void AdminServer::set_limits(int max_clients, std::size_t max_request_bytes, Duration idle_timeout,
                             std::string admin_group) {
  shared_->options.max_clients = max_clients;
  shared_->options.max_request_bytes = max_request_bytes;
  shared_->options.idle_timeout = idle_timeout;
  shared_->options.admin_group = std::move(admin_group);
  shared_->admin_gid = lookup_group(shared_->options.admin_group);
}

std::size_t AdminServer::connections() const {
  return shared_->connections.size();
}

std::size_t AdminServer::watchers() const {
  std::size_t count = 0;
  for (const auto& connection : shared_->connections) {
    count += connection->watching() ? 1 : 0;
  }
  return count;
}

}  // namespace nb::service
