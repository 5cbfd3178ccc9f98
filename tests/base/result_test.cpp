#include "base/result.hpp"

#include <gtest/gtest.h>

namespace nb {
namespace {

Result<int> parse_positive(int value) {
  if (value <= 0) {
    return make_error(EINVAL, "value " + std::to_string(value));
  }
  return value;
}

TEST(Result, CarriesTheValueOnSuccess) {
  auto result = parse_positive(3);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, 3);
}

TEST(Result, CarriesErrnoAndContextOnFailure) {
  auto result = parse_positive(-1);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().code, EINVAL);
  EXPECT_EQ(result.error().message(), "value -1: Invalid argument");
}

TEST(Result, VanishedMeansTheProcessOrFileIsGone) {
  EXPECT_TRUE(make_error(ESRCH, "pid 7").vanished());
  EXPECT_TRUE(make_error(ENOENT, "cgroup").vanished());
  EXPECT_FALSE(make_error(EPERM, "pid 7").vanished());
}

}  // namespace
}  // namespace nb
