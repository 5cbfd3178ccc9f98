#pragma once
// One TOML table being read into a struct. Every key it is asked for is known; whatever else the
// table holds is reported by finish() as unknown. A value of the wrong type is a problem and
// leaves the member at its default.

#include <toml++/toml.h>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "base/units.hpp"
#include "daemon/config/key_table.hpp"
#include "daemon/config/toml_place.hpp"

namespace nb::config {

class Section {
 public:
  Section(Loader& loader, const toml::table& table, std::string prefix)
      : loader_(loader), table_(table), prefix_(std::move(prefix)) {}

  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

  // One key into `out`, by the type of `out`: the kinds of key_table.hpp.
  void read(std::string_view name, std::string& out);
  void read(std::string_view name, bool& out);
  void read(std::string_view name, int& out);
  // Integers are numbers too: `force_read_latency_ns = 120`.
  void read(std::string_view name, double& out);
  // A size: "512MiB" or an integer of bytes.
  void read(std::string_view name, Bytes& out);
  // A size, or "auto" (unset).
  void read(std::string_view name, std::optional<Bytes>& out);
  void read(std::string_view name, Duration& out);
  void read(std::string_view name, std::vector<std::string>& out);
  // A file mode, "0660": a string, since a TOML integer 0660 is not octal (and a leading zero is
  // invalid).
  void read(std::string_view name, unsigned& out);
  // "auto" (reset) or an array of node ids.
  void read(std::string_view name, std::optional<std::vector<NodeId>>& out);
  // One of kThresholdModeNames.
  void read(std::string_view name, core::ThresholdMode& out);
  // One of kStrategyNames.
  void read(std::string_view name, core::Strategy& out);
  // A table of node id -> number: `{ "0" = 92.0, "1" = 141.5 }`. Each entry is its own key,
  // `name."0"`, so that a problem names the node it is about.
  void read(std::string_view name, std::map<NodeId, double>& out);

  // A sub-table; nullptr when absent or not a table (then a problem is reported).
  const toml::table* table(std::string_view name);
  // [[name]] entries; empty when absent or not an array (then a problem is reported). Entries
  // that are not tables are reported here and come back as nullptr so indices stay aligned.
  std::vector<const toml::table*> array_of_tables(std::string_view name);

  Loader& loader() { return loader_; }
  std::string key(std::string_view name) const {
    return prefix_.empty() ? std::string(name) : prefix_ + "." + std::string(name);
  }
  // The key of one entry of a node map, as the problems name it.
  static std::string entry_key(std::string_view map_key, std::string_view entry) {
    return std::string(map_key) + ".\"" + std::string(entry) + "\"";
  }

  // Every key of the table that nobody asked for is unknown: a typo must not silently leave a
  // default in force.
  void finish();

 private:
  const toml::node* find(std::string_view name);
  void fail(std::string_view name, std::string message);
  void wrong_type(std::string_view name, const toml::node& node, std::string_view expected);
  std::optional<Bytes> read_size(std::string_view name, const toml::node& node);
  // Each element of an array, remembered at its place; `read` returns false for a bad one.
  template <typename Read>
  bool each_element(std::string_view name, const toml::array& array, Read read);
  // A string that must be one of `names`, read back into the enum by `from`.
  template <typename Enum>
  void read_choice(std::string_view name, Enum& out, std::span<const std::string_view> names,
                   std::optional<Enum> (*from)(std::string_view));
  std::optional<std::string_view> closest_known(std::string_view name) const;

  Loader& loader_;
  const toml::table& table_;
  std::string prefix_;
  std::vector<std::string> known_;
};

// Every key of the table into `values`.
template <typename S>
void read_keys(Section& section, KeyTable<S> keys, S& values) {
  for (const Key<S>& key : keys) {
    std::visit([&](auto member) { section.read(key.name, values.*member); }, key.member);
  }
}

}  // namespace nb::config
