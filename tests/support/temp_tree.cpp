#include "tests/support/temp_tree.hpp"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace nb::testing {

TempTree::TempTree() {
  std::string pattern = (std::filesystem::temp_directory_path() / "nb-test-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) {
    throw std::runtime_error("mkdtemp failed");
  }
  root_ = pattern;
}

TempTree::~TempTree() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

std::filesystem::path TempTree::path(std::string_view relative) const {
  return root_ / std::filesystem::path(relative).relative_path();
}

std::filesystem::path TempTree::make_dir(std::string_view relative) const {
  auto full = path(relative);
  std::filesystem::create_directories(full);
  return full;
}

std::filesystem::path TempTree::make_file(std::string_view relative,
                                          std::string_view content) const {
  auto full = path(relative);
  std::filesystem::create_directories(full.parent_path());
  std::ofstream out(full, std::ios::binary | std::ios::trunc);
  out << content;
  if (!out) {
    throw std::runtime_error("cannot write " + full.string());
  }
  return full;
}

void TempTree::remove(std::string_view relative) const {
  std::filesystem::remove_all(path(relative));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

}  // namespace nb::testing
