#include "daemon/codec/state_journal.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <map>

#include "daemon/codec/atomic_file.hpp"

namespace nb::codec {

namespace {

using nlohmann::json;

constexpr int kDocumentVersion = 1;
constexpr int kJournalVersion = 2;

std::string line_of(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string header_line() {
  return line_of(json{{"version", kJournalVersion}});
}

// Adds `added` to `baselines`: appended when they measured in the same unit, else they replace.
void add_readings(std::optional<SavedBaselines>& baselines, SavedBaselines added) {
  if (!baselines || baselines->provider != added.provider || baselines->kind != added.kind) {
    baselines = std::move(added);
    return;
  }
  for (auto& [node, readings] : added.readings) {
    auto& list = baselines->readings[node];
    list.insert(list.end(), readings.begin(), readings.end());
  }
}

// The rounds in the order they were first written; a later line for a number replaces the round.
class RoundsByNumber {
 public:
  void put(rounds::RoundRecord record) {
    auto [at, inserted] = index_.emplace(record.number, rounds_.size());
    if (inserted) {
      rounds_.push_back(std::move(record));
    } else {
      rounds_[at->second] = std::move(record);
    }
  }
  std::vector<rounds::RoundRecord> take() { return std::move(rounds_); }

 private:
  std::vector<rounds::RoundRecord> rounds_;
  std::map<std::uint64_t, std::size_t> index_;
};

// One complete line of the journal into `contents`.
Status read_line(const json& line, std::size_t number, RoundsByNumber& rounds,
                 StateContents& contents) {
  const std::string where = "line " + std::to_string(number);
  if (!line.is_object() || line.size() != 1) {
    return make_error(0, where + ": not a JSON object with one member");
  }
  const auto entry = line.begin();
  const std::string& key = entry.key();
  const json& value = entry.value();
  if (key == "round") {
    auto record = record_from_json(value);
    if (!record) {
      return make_error(0, where + ": " + record.error().message());
    }
    rounds.put(std::move(record).value());
    return Ok{};
  }
  if (key == "baselines" || key == "baselines_added") {
    auto baselines = baselines_from_json(value);
    if (!baselines) {
      // The readings alone are dropped, as in a version 1 file; the rounds stay.
      contents.baselines.reset();
      contents.baselines_dropped = make_error(0, where + ": " + baselines.error().message());
    } else if (key == "baselines") {
      contents.baselines = std::move(baselines).value();
      contents.baselines_dropped.reset();
    } else if (!contents.baselines_dropped) {
      add_readings(contents.baselines, std::move(baselines).value());
    }
    return Ok{};
  }
  return make_error(0, where + ": unknown entry \"" + key + "\"");
}

}  // namespace

bool is_journal(std::string_view text) {
  const auto end = text.find('\n');
  if (end == std::string_view::npos) {
    return false;
  }
  const json first = json::parse(text.substr(0, end), nullptr, false);
  return first.is_object() && first.size() == 1 && first.contains("version") &&
         first["version"] == kJournalVersion;
}

Result<StateContents> read_journal(std::string_view text) {
  StateContents contents;
  RoundsByNumber rounds;
  std::size_t start = text.find('\n') + 1;  // after the header is_journal read
  for (std::size_t number = 2; start < text.size(); ++number) {
    const auto end = text.find('\n', start);
    if (end == std::string_view::npos) {
      contents.torn_line_dropped = true;  // a crash cut the last append short
      break;
    }
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) {
      continue;
    }
    const json value = json::parse(line, nullptr, false);
    if (value.is_discarded() && start >= text.size()) {
      // The last line, whole but not JSON: after a power loss the file system may keep the
      // append's length without its bytes. A torn line either way.
      contents.torn_line_dropped = true;
      break;
    }
    if (value.is_discarded()) {
      return make_error(0, "line " + std::to_string(number) + " is not JSON");
    }
    if (auto read = read_line(value, number, rounds, contents); !read) {
      return read.error();
    }
  }
  contents.rounds = rounds.take();
  return contents;
}

Result<StateContents> read_whole_document(std::string_view text) {
  const json document = json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    return make_error(0, "not a JSON object");
  }
  auto version = document.find("version");
  if (version == document.end() || !version->is_number_integer() ||
      version->get<int>() != kDocumentVersion) {
    return make_error(0, "unknown format version");
  }
  auto items = document.find("rounds");
  if (items == document.end() || !items->is_array()) {
    return make_error(0, "no \"rounds\" array");
  }
  StateContents contents;
  for (const auto& item : *items) {
    auto record = record_from_json(item);
    if (!record) {
      return record.error();
    }
    contents.rounds.push_back(std::move(record).value());
  }
  if (auto saved = document.find("baselines"); saved != document.end()) {
    auto baselines = baselines_from_json(*saved);
    if (baselines) {
      contents.baselines = std::move(baselines).value();
    } else {
      contents.baselines_dropped = baselines.error();
    }
  }
  return contents;
}

std::string journal_text(const std::vector<rounds::RoundRecord>& rounds,
                         const SavedBaselines* baselines) {
  std::string text = header_line();
  for (const rounds::RoundRecord& record : rounds) {
    text += line_of(json{{"round", to_json(record)}});
  }
  if (baselines != nullptr && !baselines->readings.empty()) {
    text += line_of(json{{"baselines", to_json(*baselines)}});
  }
  return text;
}

Status StateJournal::compact(const std::vector<rounds::RoundRecord>& rounds,
                             const SavedBaselines* baselines) {
  const std::string text = journal_text(rounds, baselines);
  if (auto written = write_file_atomically(file_, text); !written) {
    broken_ = true;
    return written;
  }
  compacted_ = true;
  broken_ = false;
  compacted_bytes_ = text.size();
  appended_bytes_ = 0;
  return Ok{};
}

Status StateJournal::append(const rounds::RoundRecord& record, Sync sync) {
  return append_line(line_of(json{{"round", to_json(record)}}), sync);
}

Status StateJournal::append_baselines(const SavedBaselines& added) {
  return append_line(line_of(json{{"baselines_added", to_json(added)}}), Sync::no);
}

bool StateJournal::compaction_due() const {
  return !compacted_ || broken_ || appended_bytes_ > std::max(compacted_bytes_, kCompactionFloor);
}

// One write of the whole line: a crash leaves it whole or torn at the end.
Status StateJournal::append_line(const std::string& line, Sync sync) {
  if (broken_ || !compacted_) {
    return make_error(0, "appending to " + file_.string() + ": the journal needs a compaction");
  }
  const int fd = ::open(file_.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) {
    broken_ = true;
    return make_error(errno, "opening " + file_.string());
  }
  std::size_t written = 0;
  while (written < line.size()) {
    const ssize_t n = ::write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      const int code = n < 0 ? errno : EIO;
      ::close(fd);
      broken_ = true;
      return make_error(code, "appending to " + file_.string());
    }
    written += static_cast<std::size_t>(n);
  }
  const bool synced = sync == Sync::no || ::fdatasync(fd) == 0;
  const int code = errno;
  ::close(fd);
  if (!synced) {
    broken_ = true;
    return make_error(code, "syncing " + file_.string());
  }
  appended_bytes_ += line.size();
  return Ok{};
}

}  // namespace nb::codec
