#include "daemon/metrics/chase_buffer.hpp"

#include <numa.h>
#include <numaif.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <numeric>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace nb::metrics {
namespace {

constexpr std::size_t kLineBytes = 64;
constexpr std::size_t kHugePageBytes = 2 * 1024 * 1024;
constexpr std::size_t kPagesChecked = 64;

struct alignas(kLineBytes) Line {
  Line* next;
};

}  // namespace

Result<ChaseBuffer> ChaseBuffer::create(NodeId node, Bytes bytes, std::uint64_t seed) {
  if (bytes < static_cast<Bytes>(kHugePageBytes)) {
    return make_error(EINVAL, "probe buffer of " + std::to_string(bytes) + " bytes is too small");
  }
  if (node < 0 || node > numa_max_possible_node()) {
    return make_error(EINVAL, "node " + std::to_string(node) + " is out of range");
  }
  std::size_t size =
      (static_cast<std::size_t>(bytes) + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  void* mapping = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapping == MAP_FAILED) {
    return make_error(errno, "mmap probe buffer for node " + std::to_string(node));
  }
  ChaseBuffer buffer(node, mapping, size, size / kLineBytes);
  std::vector<unsigned long> mask((static_cast<std::size_t>(node) / (8 * sizeof(unsigned long))) +
                                  1);
  mask[static_cast<std::size_t>(node) / (8 * sizeof(unsigned long))] |=
      1UL << (static_cast<std::size_t>(node) % (8 * sizeof(unsigned long)));
  if (::mbind(mapping, size, MPOL_BIND, mask.data(), mask.size() * 8 * sizeof(unsigned long) + 1,
              0) != 0) {
    return make_error(errno, "mbind probe buffer to node " + std::to_string(node));
  }
  // Huge pages keep page walks out of the figure where THP allows it (madvise or always).
  ::madvise(mapping, size, MADV_HUGEPAGE);

  // Visiting the lines in a random order and linking each to the next gives a single cycle.
  // The links are written in address order (each line's successor looked up through the
  // inverse permutation, which stays in cache): writing them in visiting order would cost a
  // cache miss per line and triple the set-up time.
  std::vector<std::uint32_t> order(buffer.lines_);
  std::iota(order.begin(), order.end(), 0U);
  std::mt19937_64 random(seed);
  std::shuffle(order.begin(), order.end(), random);
  std::vector<std::uint32_t> visit_index(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    visit_index[order[i]] = static_cast<std::uint32_t>(i);
  }
  auto* lines = static_cast<Line*>(mapping);
  for (std::size_t line = 0; line < order.size(); ++line) {
    lines[line].next = &lines[order[(visit_index[line] + 1) % order.size()]];
  }
  buffer.position_ = &lines[order.front()];

  std::vector<void*> pages(kPagesChecked);
  std::vector<int> status(kPagesChecked, -1);
  for (std::size_t i = 0; i < kPagesChecked; ++i) {
    pages[i] = static_cast<char*>(mapping) + (size / kPagesChecked) * i;
  }
  if (numa_move_pages(0, kPagesChecked, pages.data(), nullptr, status.data(), 0) != 0) {
    return make_error(errno, "query the node of the probe buffer's pages");
  }
  for (int page_node : status) {
    if (page_node != node) {
      return make_error(0, "probe buffer for node " + std::to_string(node) +
                               " has a page on node " + std::to_string(page_node));
    }
  }
  return buffer;
}

ChaseBuffer::ChaseBuffer(NodeId node, void* mapping, std::size_t mapping_bytes, std::size_t lines)
    : node_(node), mapping_(mapping), mapping_bytes_(mapping_bytes), lines_(lines) {}

ChaseBuffer::ChaseBuffer(ChaseBuffer&& other) noexcept
    : node_(other.node_),
      mapping_(std::exchange(other.mapping_, nullptr)),
      mapping_bytes_(std::exchange(other.mapping_bytes_, 0)),
      lines_(other.lines_),
      position_(std::exchange(other.position_, nullptr)) {}

ChaseBuffer& ChaseBuffer::operator=(ChaseBuffer&& other) noexcept {
  if (this != &other) {
    release();
    node_ = other.node_;
    mapping_ = std::exchange(other.mapping_, nullptr);
    mapping_bytes_ = std::exchange(other.mapping_bytes_, 0);
    lines_ = other.lines_;
    position_ = std::exchange(other.position_, nullptr);
  }
  return *this;
}

ChaseBuffer::~ChaseBuffer() {
  release();
}

void ChaseBuffer::release() {
  if (mapping_ != nullptr) {
    ::munmap(mapping_, mapping_bytes_);
    mapping_ = nullptr;
  }
}

double ChaseBuffer::chase(int loads) {
  auto* line = static_cast<Line*>(position_);
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < loads; ++i) {
    line = line->next;
  }
  auto elapsed = std::chrono::steady_clock::now() - start;
  position_ = line;
  return static_cast<double>(
             std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count()) /
         loads;
}

}  // namespace nb::metrics
