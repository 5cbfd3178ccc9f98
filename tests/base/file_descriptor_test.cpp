#include "base/file_descriptor.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>

#include <utility>

namespace nb {
namespace {

bool is_open(int fd) {
  return ::fcntl(fd, F_GETFD) != -1;
}

int an_open_descriptor() {
  return ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

TEST(FileDescriptor, ClosesWhatItOwnsWhenItGoesOutOfScope) {
  int raw = an_open_descriptor();
  ASSERT_GE(raw, 0);
  {
    FileDescriptor fd(raw);
    EXPECT_TRUE(fd.valid());
    EXPECT_TRUE(is_open(raw));
  }
  EXPECT_FALSE(is_open(raw));
}

TEST(FileDescriptor, AMoveHandsItOverAndClosesItOnce) {
  int raw = an_open_descriptor();
  FileDescriptor first(raw);
  FileDescriptor second(std::move(first));
  EXPECT_FALSE(first.valid());
  EXPECT_EQ(second.get(), raw);
  first.reset();
  EXPECT_TRUE(is_open(raw)) << "the moved-from one closed the descriptor it gave away";

  int other = an_open_descriptor();
  FileDescriptor third(other);
  third = std::move(second);
  EXPECT_FALSE(is_open(other)) << "assigning over a descriptor closes the one it held";
  EXPECT_EQ(third.get(), raw);
  EXPECT_TRUE(is_open(raw));
}

TEST(FileDescriptor, ResetClosesNowAndNothingIsClosedTwice) {
  int raw = an_open_descriptor();
  FileDescriptor fd(raw);
  fd.reset();
  EXPECT_FALSE(is_open(raw));
  EXPECT_FALSE(fd.valid());
  fd.reset();
  FileDescriptor nothing;
  EXPECT_FALSE(nothing.valid());
  EXPECT_EQ(nothing.get(), -1);
}

}  // namespace
}  // namespace nb
