// docs/ARCHITECTURE.md is the map for whoever extends the code; a map that names files which moved
// sends them to the wrong place. These tests keep it in step with the tree: every path it names
// exists, and every source folder has its row in the folder table.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace nb::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = NB_SOURCE_DIR;

std::string architecture_doc() {
  std::ifstream in(kRoot / "docs" / "ARCHITECTURE.md");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> code_spans(const std::string& text) {
  std::vector<std::string> spans;
  static const std::regex kSpan("`([^`\n]+)`");
  for (std::sregex_iterator it(text.begin(), text.end(), kSpan), end; it != end; ++it) {
    spans.push_back((*it)[1]);
  }
  return spans;
}

// "a/keys.{hpp,cpp}" is the two files a/keys.hpp and a/keys.cpp.
std::vector<std::string> expand_braces(const std::string& path) {
  const auto open = path.find('{');
  const auto close = path.find('}');
  if (open == std::string::npos || close == std::string::npos || close < open) {
    return {path};
  }
  std::vector<std::string> paths;
  std::stringstream choices(path.substr(open + 1, close - open - 1));
  for (std::string choice; std::getline(choices, choice, ',');) {
    paths.push_back(path.substr(0, open) + choice + path.substr(close + 1));
  }
  return paths;
}

// A span that names a place in the tree: it has a slash and no placeholder such as <name>.
bool names_a_path(const std::string& span) {
  return span.find('/') != std::string::npos && span.find_first_of("<>* ") == std::string::npos &&
         span.find("::") == std::string::npos;
}

TEST(ArchitectureDoc, EveryPathItNamesExists) {
  const std::string doc = architecture_doc();
  ASSERT_FALSE(doc.empty()) << "docs/ARCHITECTURE.md is missing";
  int checked = 0;
  for (const std::string& span : code_spans(doc)) {
    if (!names_a_path(span)) {
      continue;
    }
    for (const std::string& path : expand_braces(span)) {
      EXPECT_TRUE(fs::exists(kRoot / path)) << "docs/ARCHITECTURE.md names " << path;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20) << "the doc should name the files each extension point touches";
}

// Folders with sources: base/, core/, actuator/ and every folder below daemon/.
std::set<std::string> source_folders() {
  std::set<std::string> folders = {"base/", "core/", "actuator/"};
  for (const auto& entry : fs::recursive_directory_iterator(kRoot / "daemon")) {
    if (entry.is_directory()) {
      folders.insert(fs::relative(entry.path(), kRoot).string());
    }
  }
  return folders;
}

TEST(ArchitectureDoc, EverySourceFolderHasARowInTheFolderTable) {
  const std::string doc = architecture_doc();
  for (const std::string& folder : source_folders()) {
    EXPECT_NE(doc.find("| `" + folder + "` |"), std::string::npos)
        << "docs/ARCHITECTURE.md's folder table has no row for " << folder;
  }
}

}  // namespace
}  // namespace nb::testing
