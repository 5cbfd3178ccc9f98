#pragma once
// Cuts a byte stream into request lines. A line longer than the limit is reported once as
// oversized and its bytes are dropped up to the next newline, so the connection stays usable.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace nb::service {

struct Frame {
  std::string line;  // without the newline; empty when oversized
  bool oversized = false;
};

class LineFramer {
 public:
  explicit LineFramer(std::size_t max_line_bytes) : max_line_bytes_(max_line_bytes) {}

  std::vector<Frame> feed(std::string_view bytes);
  // Bytes of an unfinished line held so far.
  std::size_t pending() const { return partial_.size(); }

 private:
  std::size_t max_line_bytes_;
  std::string partial_;
  bool discarding_ = false;
};

}  // namespace nb::service
