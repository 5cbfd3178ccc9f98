#include "daemon/service/export/textfile_export.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include "daemon/codec/atomic_file.hpp"
#include "daemon/service/export/failure_log.hpp"
#include "tests/support/captured_log.hpp"
#include "tests/support/temp_tree.hpp"

namespace nb::service {
namespace {

using nb::testing::TempTree;
using ::testing::HasSubstr;
using ::testing::SizeIs;

std::vector<std::string> directory_names(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

using nb::testing::CapturedLog;

TEST(AtomicFile, ReplacesTheContentAndLeavesNoTempFileBehind) {
  TempTree tree;
  auto file = tree.make_dir("textfile") / "numabalancer.prom";
  ASSERT_TRUE(codec::write_file_atomically(file, "first\n").ok());
  ASSERT_TRUE(codec::write_file_atomically(file, "second\n").ok());
  EXPECT_EQ(nb::testing::read_file(file), "second\n");
  EXPECT_EQ(directory_names(file.parent_path()), std::vector<std::string>{"numabalancer.prom"});
  struct stat st {};
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0644u) << "node_exporter runs as another user";
}

TEST(AtomicFile, FailureKeepsTheOldContentAndNoTempFile) {
  TempTree tree;
  auto dir = tree.make_dir("textfile");
  auto file = tree.make_file("textfile/numabalancer.prom", "old\n");
  // A rename onto a non-empty directory fails after the temp file was written.
  tree.make_file("textfile/busy.prom/keep", "");
  auto failed = codec::write_file_atomically(dir / "busy.prom", "new\n");
  ASSERT_FALSE(failed.ok());
  EXPECT_THAT(failed.error().message(), HasSubstr("rename"));
  EXPECT_EQ(nb::testing::read_file(file), "old\n");
  EXPECT_EQ(directory_names(dir), (std::vector<std::string>{"busy.prom", "numabalancer.prom"}));
}

TEST(TextfileExport, WritesTheGivenTextEachTime) {
  TempTree tree;
  auto file = tree.make_dir("out") / "nb.prom";
  TextfileExport exporter;
  exporter.write(file, "a 1\n");
  EXPECT_EQ(nb::testing::read_file(file), "a 1\n");
  exporter.write(file, "a 2\n");
  EXPECT_EQ(nb::testing::read_file(file), "a 2\n");
  EXPECT_FALSE(exporter.current_error().has_value());
}

TEST(TextfileExport, EmptyPathIsOff) {
  TempTree tree;
  TextfileExport exporter;
  exporter.write("", "a 1\n");
  EXPECT_FALSE(exporter.current_error().has_value());
  EXPECT_TRUE(directory_names(tree.root()).empty());
}

TEST(TextfileExport, UnwritablePathIsLoggedOncePerChangeOfError) {
  TempTree tree;
  CapturedLog log;
  TextfileExport exporter;
  auto missing_dir = tree.path("no/such/dir/nb.prom");
  for (int round = 0; round < 3; ++round) {
    exporter.write(missing_dir, "a 1\n");
  }
  ASSERT_TRUE(exporter.current_error().has_value());
  EXPECT_THAT(log.lines(), SizeIs(1));

  tree.make_file("out/nb.prom/keep", "");  // a directory where the file should be
  exporter.write(tree.path("out/nb.prom"), "a 1\n");
  exporter.write(tree.path("out/nb.prom"), "a 1\n");
  EXPECT_THAT(log.lines(), SizeIs(2)) << "a different error is logged once more";

  exporter.write(tree.path("out/ok.prom"), "a 1\n");
  exporter.write(tree.path("out/ok.prom"), "a 1\n");
  auto lines = log.lines();
  ASSERT_THAT(lines, SizeIs(3));
  EXPECT_THAT(lines.back(), HasSubstr("works again"));
  EXPECT_FALSE(exporter.current_error().has_value());
}

TEST(FailureLog, SameErrorTwiceIsLoggedOnce) {
  CapturedLog log;
  FailureLog failures("export");
  EXPECT_FALSE(failures.note(Ok{})) << "success with no earlier error says nothing";
  EXPECT_TRUE(failures.note(make_error(EACCES, "open /x")));
  EXPECT_FALSE(failures.note(make_error(EACCES, "open /x")));
  EXPECT_TRUE(failures.note(make_error(ENOSPC, "write /x")));
  EXPECT_TRUE(failures.note(Ok{}));
  EXPECT_FALSE(failures.note(Ok{}));
  EXPECT_THAT(log.lines(), SizeIs(3));
}

}  // namespace
}  // namespace nb::service
