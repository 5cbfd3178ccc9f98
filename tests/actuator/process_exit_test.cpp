#include "actuator/process_exit.hpp"

#include <gtest/gtest.h>

#include <cerrno>

#include "tests/support/temp_tree.hpp"

namespace nb::actuator {
namespace {

class ProcessExited : public ::testing::Test {
 protected:
  void stat(const std::string& text) { tree.make_file("proc/42/stat", text + "\n"); }
  bool exited(int error) { return process_exited(tree.path("proc"), 42, error); }

  nb::testing::TempTree tree;
};

TEST_F(ProcessExited, EsrchMeansReapedWhateverStatSays) {
  stat("42 (app) R 1 42 42 0 -1 4194560 0 0");
  EXPECT_TRUE(exited(ESRCH));
}

TEST_F(ProcessExited, ARunningProcessHasNotExited) {
  stat("42 (app) R 1 42 42 0 -1 4194560 0 0");
  EXPECT_FALSE(exited(EINVAL));
}

TEST_F(ProcessExited, ZombiesAndDeadProcessesHaveExited) {
  stat("42 (app) Z 1 42 42 0 -1 4194560 0 0");
  EXPECT_TRUE(exited(EINVAL));
  stat("42 (app) X 1 42 42 0 -1 4194560 0 0");
  EXPECT_TRUE(exited(EINVAL));
}

TEST_F(ProcessExited, PfExitingInTheFlagsMeansExiting) {
  stat("42 (app) R 1 42 42 0 -1 4194564 0 0");
  EXPECT_TRUE(exited(EINVAL));
}

TEST_F(ProcessExited, ACommandNameWithParenthesesAndSpacesIsSkipped) {
  stat("42 (a) Z (b) R 1 42 42 0 -1 4194560 0 0");
  EXPECT_FALSE(exited(EINVAL));
}

TEST_F(ProcessExited, NoStatMeansGone) {
  EXPECT_TRUE(exited(EINVAL));
}

TEST_F(ProcessExited, AStatWithoutACommandNameIsNotTakenForAnExit) {
  stat("garbage");
  EXPECT_FALSE(exited(EINVAL));
}

}  // namespace
}  // namespace nb::actuator
