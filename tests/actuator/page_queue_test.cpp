#include "actuator/page_queue.hpp"

#include <gtest/gtest.h>

namespace nb::actuator {
namespace {

PageEntry page(std::uintptr_t address, std::int64_t base_pages = 1) {
  return {address, base_pages, false};
}

std::vector<std::uintptr_t> addresses(const PageQueue& queue) {
  std::vector<std::uintptr_t> out;
  for (const auto& entry : queue.front(queue.size())) {
    out.push_back(entry.address);
  }
  return out;
}

TEST(PageQueue, BatchesComeOffTheFrontInOrder) {
  PageQueue queue;
  for (std::uintptr_t a = 1; a <= 5; ++a) {
    queue.push_back(page(a));
  }
  auto batch = queue.front(2);
  ASSERT_EQ(batch.size(), 2u);
  EXPECT_EQ(batch[0].address, 1u);
  EXPECT_EQ(batch[1].address, 2u);
  queue.pop_front(2);
  EXPECT_EQ(addresses(queue), (std::vector<std::uintptr_t>{3, 4, 5}));
}

TEST(PageQueue, CountsBasePagesOfHugePagesWhole) {
  PageQueue queue;
  queue.push_back(page(1));
  queue.push_back(page(2, 512));
  queue.push_back(page(3));
  EXPECT_EQ(queue.base_pages(), 514);
  queue.pop_front(2);
  EXPECT_EQ(queue.base_pages(), 1);
  queue.push_front(page(2, 512));
  EXPECT_EQ(queue.base_pages(), 513);
  queue.pop_front(2);
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.base_pages(), 0);
}

TEST(PageQueue, PagesPutBackGoFirstInTheirOrder) {
  PageQueue queue;
  for (std::uintptr_t a = 1; a <= 4; ++a) {
    queue.push_back(page(a));
  }
  queue.pop_front(3);
  queue.push_front(page(3));
  queue.push_front(page(1));
  EXPECT_EQ(addresses(queue), (std::vector<std::uintptr_t>{1, 3, 4}));
}

TEST(PageQueue, PutBackIntoAFreshQueueStillWorks) {
  PageQueue queue;
  queue.push_back(page(2));
  queue.push_front(page(1));
  EXPECT_EQ(addresses(queue), (std::vector<std::uintptr_t>{1, 2}));
  EXPECT_EQ(queue.base_pages(), 2);
}

TEST(PageQueue, ConsumedFrontIsReclaimedWithoutLosingOrder) {
  PageQueue queue;
  std::uintptr_t next = 0;
  std::uintptr_t expected_front = 0;
  // Far more pages pass through than are ever waiting, so the front is reclaimed many times.
  for (int round = 0; round < 300; ++round) {
    for (int i = 0; i < 1000; ++i) {
      queue.push_back(page(next++));
    }
    queue.pop_front(900);
    expected_front += 900;
    ASSERT_EQ(queue.front(1)[0].address, expected_front) << "round " << round;
  }
  EXPECT_EQ(queue.size(), 300u * 100u);
  EXPECT_EQ(queue.base_pages(), 300 * 100);
  auto rest = addresses(queue);
  for (std::size_t i = 0; i < rest.size(); ++i) {
    ASSERT_EQ(rest[i], expected_front + i);
  }
}

TEST(PageQueue, ARunIsQueuedPageByPage) {
  PageQueue queue;
  queue.push_back(page(0x1000));
  queue.push_run(0x200000, 3, 0x200000, 512);
  queue.push_run(0x900000, 0, 0x1000, 1);
  EXPECT_EQ(addresses(queue), (std::vector<std::uintptr_t>{0x1000, 0x200000, 0x400000, 0x600000}));
  EXPECT_EQ(queue.base_pages(), 1 + 3 * 512);
  for (const auto& entry : queue.front(4).subspan(1)) {
    EXPECT_EQ(entry.base_pages, 512);
    EXPECT_FALSE(entry.requeued);
  }
}

TEST(PageQueue, ClearEmptiesIt) {
  PageQueue queue;
  queue.push_back(page(1, 512));
  queue.clear();
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.size(), 0u);
  EXPECT_EQ(queue.base_pages(), 0);
}

}  // namespace
}  // namespace nb::actuator
