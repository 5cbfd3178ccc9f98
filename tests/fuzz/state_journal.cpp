// The state file as the daemon reads it at start-up: a journal of JSON lines (or a version 1
// document). Whatever it holds, reading ends in the rounds or an error; and what was read, written
// anew as a compaction, reads back to the same rounds, so that a start-up compaction never turns
// a readable file into one that is set aside.

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "daemon/codec/state_journal.hpp"
#include "daemon/service/round_engine.hpp"
#include "tests/fuzz/fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = nb::fuzz::as_text(data, size);
  auto read = nb::codec::is_journal(text) ? nb::codec::read_journal(text)
                                          : nb::codec::read_whole_document(text);
  if (!read) {
    return 0;
  }
  nb::service::RoundEngine engine;
  engine.restore(read->rounds);
  const auto& baselines = read->baselines;
  const std::string compacted =
      nb::codec::journal_text(engine.rounds(), baselines ? &*baselines : nullptr);
  auto again = nb::codec::read_journal(compacted);
  if (!again || again->rounds.size() != engine.rounds().size() || again->torn_line_dropped) {
    abort();
  }
  for (std::size_t i = 0; i < engine.rounds().size(); ++i) {
    if (nb::codec::to_json(again->rounds[i]) != nb::codec::to_json(engine.rounds()[i])) {
      abort();
    }
  }
  return 0;
}
