#pragma once
// One admin client, and what all clients share. A connection answers its request lines a few per
// turn and then yields to the io_context, so that a client pipelining expensive requests cannot
// starve the others; it stops answering while its unread replies fill half its output cap, and
// resumes as the client reads. A reply larger than the cap is an error reply; an event that does
// not fit drops the client (a watcher that stopped reading). Queued output across connections is
// capped too: beyond it the connection with the most unread output is dropped.

#include <asio.hpp>
#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "daemon/service/admin/admin_server.hpp"
#include "daemon/service/admin/command_table.hpp"
#include "daemon/service/admin/line_framer.hpp"

namespace nb::service {

class AdminConnection;

struct AdminShared {
  const CommandTable& table;
  AdminServerOptions options;
  std::optional<gid_t> admin_gid;
  std::set<std::shared_ptr<AdminConnection>> connections;
  std::size_t queued_bytes = 0;  // unwritten output of all connections
  bool stopped = false;

  std::size_t watchers() const;
};

class AdminConnection : public std::enable_shared_from_this<AdminConnection> {
 public:
  // Requests answered per turn before the connection yields to the others.
  static constexpr std::size_t kRequestsPerTurn = 4;

  AdminConnection(asio::local::stream_protocol::socket socket, std::shared_ptr<AdminShared> shared,
                  std::optional<PeerCredentials> caller, bool caller_is_admin);

  void start();
  // Sends `line` (an error reply) and closes once it is written.
  void refuse(std::string line);
  // An event after `watch`; a watcher whose queue it would overflow is dropped.
  void send_event(const std::string& line);
  void close();

  bool watching() const { return watching_; }
  std::size_t queued_bytes() const { return queued_bytes_; }

 private:
  void read_next();
  void run_turn();
  void answer(const Frame& frame);
  std::string reply_line(wire::Response response);
  bool output_full() const;
  void enqueue(std::string line);
  bool make_room(std::size_t bytes);
  void write_next();
  void written(std::size_t bytes);
  void arm_idle_timer();

  asio::local::stream_protocol::socket socket_;
  asio::steady_timer timer_;
  std::shared_ptr<AdminShared> shared_;
  LineFramer framer_;
  std::optional<PeerCredentials> caller_;
  bool caller_is_admin_;
  bool watching_ = false;
  bool closed_ = false;
  bool close_when_written_ = false;
  bool waiting_for_output_ = false;  // a turn stopped because the outbox is full
  std::array<char, 8192> buffer_{};
  std::deque<Frame> requests_;
  std::deque<std::string> outbox_;
  std::size_t queued_bytes_ = 0;
};

}  // namespace nb::service
