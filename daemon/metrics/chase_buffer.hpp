#pragma once
// Memory on one node holding a random cyclic chain of cache-line links: following it makes
// every load depend on the previous one and land on a line the prefetchers cannot guess, so the
// time per link is the load-to-use latency of that node's memory as seen from the running CPU.

#include <cstddef>
#include <cstdint>

#include "base/result.hpp"
#include "base/units.hpp"

namespace nb::metrics {

class ChaseBuffer {
 public:
  // Binds `bytes` (rounded to 2 MiB) to `node` with MPOL_BIND before touching them, builds one
  // random cycle through all lines and checks that the pages really are on `node`.
  static Result<ChaseBuffer> create(NodeId node, Bytes bytes, std::uint64_t seed);

  ChaseBuffer(ChaseBuffer&& other) noexcept;
  ChaseBuffer& operator=(ChaseBuffer&& other) noexcept;
  ChaseBuffer(const ChaseBuffer&) = delete;
  ChaseBuffer& operator=(const ChaseBuffer&) = delete;
  ~ChaseBuffer();

  // Follows `loads` links from where the previous chase stopped; nanoseconds per load.
  double chase(int loads);

  NodeId node() const { return node_; }
  std::size_t lines() const { return lines_; }

 private:
  ChaseBuffer(NodeId node, void* mapping, std::size_t mapping_bytes, std::size_t lines);
  void release();

  NodeId node_ = 0;
  void* mapping_ = nullptr;
  std::size_t mapping_bytes_ = 0;
  std::size_t lines_ = 0;
  void* position_ = nullptr;
};

}  // namespace nb::metrics
