#include "daemon/service/admin/line_framer.hpp"

namespace nb::service {

std::vector<Frame> LineFramer::feed(std::string_view bytes) {
  std::vector<Frame> frames;
  while (!bytes.empty()) {
    auto newline = bytes.find('\n');
    std::string_view piece = bytes.substr(0, newline);
    if (!discarding_) {
      if (partial_.size() + piece.size() > max_line_bytes_) {
        frames.push_back(Frame{{}, true});
        partial_.clear();
        discarding_ = true;
      } else {
        partial_.append(piece);
      }
    }
    if (newline == std::string_view::npos) {
      break;
    }
    bytes.remove_prefix(newline + 1);
    if (discarding_) {
      discarding_ = false;
      continue;
    }
    if (!partial_.empty() && partial_.back() == '\r') {
      partial_.pop_back();
    }
    // Blank lines are keep-alives, not requests.
    if (!partial_.empty()) {
      frames.push_back(Frame{std::move(partial_), false});
    }
    partial_.clear();
  }
  return frames;
}

}  // namespace nb::service
