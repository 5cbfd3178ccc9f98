#include "daemon/service/admin/admin_connection.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

namespace nb::service {

std::size_t AdminShared::watchers() const {
  return static_cast<std::size_t>(std::count_if(connections.begin(), connections.end(),
                                                [](const auto& c) { return c->watching(); }));
}

AdminConnection::AdminConnection(asio::local::stream_protocol::socket socket,
                                 std::shared_ptr<AdminShared> shared,
                                 std::optional<PeerCredentials> caller, bool caller_is_admin)
    : socket_(std::move(socket)),
      timer_(socket_.get_executor()),
      shared_(std::move(shared)),
      framer_(shared_->options.max_request_bytes),
      caller_(std::move(caller)),
      caller_is_admin_(caller_is_admin) {}

void AdminConnection::start() {
  arm_idle_timer();
  read_next();
}

void AdminConnection::refuse(std::string line) {
  close_when_written_ = true;
  enqueue(std::move(line));
}

void AdminConnection::send_event(const std::string& line) {
  if (closed_) {
    return;
  }
  if (queued_bytes_ + line.size() > shared_->options.max_queued_bytes) {
    spdlog::warn("admin: dropping a watcher that does not read its events ({} bytes unread)",
                 queued_bytes_);
    close();
    return;
  }
  enqueue(line);
}

void AdminConnection::close() {
  if (closed_) {
    return;
  }
  closed_ = true;
  asio::error_code ignored;
  timer_.cancel();
  socket_.shutdown(asio::socket_base::shutdown_both, ignored);
  socket_.close(ignored);
  shared_->queued_bytes -= queued_bytes_;
  queued_bytes_ = 0;
  outbox_.clear();
  requests_.clear();
  shared_->connections.erase(shared_from_this());
}

void AdminConnection::read_next() {
  socket_.async_read_some(
      asio::buffer(buffer_), [self = shared_from_this()](asio::error_code error, std::size_t size) {
        if (error || self->closed_) {
          self->close();
          return;
        }
        self->arm_idle_timer();
        for (auto& frame : self->framer_.feed(std::string_view(self->buffer_.data(), size))) {
          self->requests_.push_back(std::move(frame));
        }
        self->run_turn();
      });
}

// The one place that continues a connection: it reads again only once every request it read is
// answered, so a client cannot queue more than one read's worth of requests.
void AdminConnection::run_turn() {
  for (std::size_t done = 0; done < kRequestsPerTurn && !requests_.empty(); ++done) {
    if (closed_ || output_full()) {
      break;
    }
    Frame frame = std::move(requests_.front());
    requests_.pop_front();
    answer(frame);
  }
  if (closed_) {
    return;
  }
  if (requests_.empty()) {
    read_next();
  } else if (output_full()) {
    waiting_for_output_ = true;
  } else {
    asio::post(socket_.get_executor(), [self = shared_from_this()] {
      if (!self->closed_) {
        self->run_turn();
      }
    });
  }
}

void AdminConnection::answer(const Frame& frame) {
  if (frame.oversized) {
    enqueue(reply_line(wire::failure(nullptr, wire::ErrorCode::too_large,
                                     "request line longer than " +
                                         std::to_string(shared_->options.max_request_bytes) +
                                         " bytes")));
    return;
  }
  CommandContext context{caller_is_admin_, false, caller_ && caller_->uid == 0, caller_};
  auto response = shared_->table.handle_line(frame.line, context);
  if (context.start_watching && response.ok() && !watching_) {
    auto limit = static_cast<std::size_t>(shared_->options.max_watchers);
    if (shared_->watchers() >= limit) {
      response = wire::failure(response.id, wire::ErrorCode::busy,
                               "too many watchers (max_watchers = " + std::to_string(limit) + ")");
    } else {
      watching_ = true;
      timer_.cancel();
    }
  }
  enqueue(reply_line(std::move(response)));
}

std::string AdminConnection::reply_line(wire::Response response) {
  std::string line = wire::to_line(response);
  std::size_t cap = shared_->options.max_queued_bytes;
  if (line.size() <= cap) {
    return line;
  }
  return wire::to_line(wire::failure(response.id, wire::ErrorCode::reply_too_large,
                                     "the reply has " + std::to_string(line.size()) +
                                         " bytes, more than this connection's output cap of " +
                                         std::to_string(cap) + "; ask for less (a limit)"));
}

bool AdminConnection::output_full() const {
  return queued_bytes_ >= shared_->options.max_queued_bytes / 2;
}

void AdminConnection::enqueue(std::string line) {
  if (closed_ || !make_room(line.size())) {
    return;
  }
  queued_bytes_ += line.size();
  shared_->queued_bytes += line.size();
  outbox_.push_back(std::move(line));
  if (outbox_.size() == 1) {
    write_next();
  }
}

// Drops the connections with the most unread output until `bytes` more fit under the global
// cap; false when this connection was one of them.
bool AdminConnection::make_room(std::size_t bytes) {
  std::size_t cap = shared_->options.max_total_queued_bytes;
  while (shared_->queued_bytes + bytes > cap && !closed_) {
    auto biggest = std::max_element(
        shared_->connections.begin(), shared_->connections.end(),
        [](const auto& a, const auto& b) { return a->queued_bytes() < b->queued_bytes(); });
    if (biggest == shared_->connections.end() || (*biggest)->queued_bytes() == 0) {
      break;  // only this line is over the cap: it is bounded by the connection's own cap
    }
    spdlog::warn(
        "admin: {} bytes of replies and events are unread across connections (cap {}); "
        "dropping the client with the most unread ({} bytes)",
        shared_->queued_bytes, cap, (*biggest)->queued_bytes());
    std::shared_ptr<AdminConnection> victim = *biggest;
    victim->close();
  }
  return !closed_;
}

void AdminConnection::write_next() {
  asio::async_write(socket_, asio::buffer(outbox_.front()),
                    [self = shared_from_this()](asio::error_code error, std::size_t) {
                      if (self->closed_) {
                        return;
                      }
                      if (error) {
                        self->close();
                        return;
                      }
                      self->written(self->outbox_.front().size());
                    });
}

// A client that reads its replies is not idle, however long its pipeline takes.
void AdminConnection::written(std::size_t bytes) {
  arm_idle_timer();
  queued_bytes_ -= bytes;
  shared_->queued_bytes -= bytes;
  outbox_.pop_front();
  if (!outbox_.empty()) {
    write_next();
  } else if (close_when_written_) {
    close();
    return;
  }
  if (waiting_for_output_ && !output_full()) {
    waiting_for_output_ = false;
    run_turn();
  }
}

void AdminConnection::arm_idle_timer() {
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

}  // namespace nb::service
