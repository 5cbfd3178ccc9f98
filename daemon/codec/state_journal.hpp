#pragma once
// The state file as a journal, one JSON object a line, so that a round costs what it adds rather
// than the whole history:
//   {"version": 2}                      the first line
//   {"round": {...}}                    a round as kept; a later line for the same number replaces
//   it
//   {"baselines": {...}}                the readings behind learned baselines, replacing any before
//   {"baselines_added": {...}}          readings since the last save, added to those before (or
//                                       replacing them when the provider or kind differ)
// A compaction writes the kept rounds and the baselines once each. The version 1 file, one JSON
// document {"version": 1, "rounds": [...], "baselines": {...}}, still reads. `jq` reads both.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.hpp"
#include "daemon/codec/baseline_json.hpp"
#include "daemon/codec/state_file.hpp"

namespace nb::codec {

bool is_journal(std::string_view text);
// A last line without its newline, or that is not JSON, is torn: dropped, and said so in the
// contents. Any other line that does not read is an error naming its line.
Result<StateContents> read_journal(std::string_view text);
Result<StateContents> read_whole_document(std::string_view text);

// The compacted journal of `rounds` and `baselines`.
std::string journal_text(const std::vector<rounds::RoundRecord>& rounds,
                         const SavedBaselines* baselines);

// Appends to a journal that a compaction wrote. A failed append may leave a torn line, after which
// nothing more may be appended: compaction_due() says so until the next compaction.
class StateJournal {
 public:
  explicit StateJournal(std::filesystem::path file) : file_(std::move(file)) {}

  // Whether an append waits for the disk (fdatasync). A process killed any time loses nothing
  // either way (the page cache has it); without it a power loss may take the appends of the
  // kernel's writeback delay (30 s by default) with it, so only what must survive that waits.
  enum class Sync { no, yes };

  // Written anew: write-temp, fsync, rename.
  Status compact(const std::vector<rounds::RoundRecord>& rounds, const SavedBaselines* baselines);
  Status append(const rounds::RoundRecord& record, Sync sync);
  Status append_baselines(const SavedBaselines& added);
  // Appends since the last compaction outweigh what it wrote (at least kCompactionFloor), or an
  // append failed, or nothing was compacted yet.
  bool compaction_due() const;
  const std::filesystem::path& file() const { return file_; }

  static constexpr std::size_t kCompactionFloor = 64 * 1024;

 private:
  Status append_line(const std::string& line, Sync sync);

  std::filesystem::path file_;
  bool compacted_ = false;
  bool broken_ = false;
  std::size_t compacted_bytes_ = 0;
  std::size_t appended_bytes_ = 0;
};

}  // namespace nb::codec
