#include "daemon/config/load.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/parse_units.hpp"
#include "daemon/config/validate.hpp"

namespace nb::config {
namespace {

struct Place {
  int line = 0;
  int column = 0;
};

Place place_of(const toml::source_region& region) {
  return Place{static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

// A table is placed at its [header], any other value at its key.
Place place_of_entry(const toml::key& key, const toml::node& node) {
  bool has_header = node.is_table() && node.source().begin.line > 0;
  return place_of(has_header ? node.source() : key.source());
}

std::string_view type_name(const toml::node& node) {
  switch (node.type()) {
    case toml::node_type::table:
      return "a table";
    case toml::node_type::array:
      return "an array";
    case toml::node_type::string:
      return "a string";
    case toml::node_type::integer:
      return "an integer";
    case toml::node_type::floating_point:
      return "a float";
    case toml::node_type::boolean:
      return "a boolean";
    case toml::node_type::date:
      return "a date";
    case toml::node_type::time:
      return "a time";
    case toml::node_type::date_time:
      return "a date-time";
    case toml::node_type::none:
      break;
  }
  return "nothing";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    row[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

// "pool[1].cgroups[0]" -> "pool[1].cgroups" -> "pool[1]" -> "pool" -> "".
std::string parent_key(std::string_view key) {
  std::size_t cut = key.find_last_of(".[");
  return cut == std::string_view::npos ? std::string() : std::string(key.substr(0, cut));
}

// True when one key is the other or lies inside it.
bool overlaps(std::string_view a, std::string_view b) {
  if (a.size() > b.size()) {
    std::swap(a, b);
  }
  return b.substr(0, a.size()) == a &&
         (b.size() == a.size() || b[a.size()] == '.' || b[a.size()] == '[');
}

// What has been read so far: the problems found while reading, and where each key sits in the
// file so that problems found later by validation can be placed too.
class Loader {
 public:
  void problem(std::string key, Place place, std::string message) {
    problems_.push_back(
        ConfigProblem{std::move(key), std::move(message), place.line, place.column});
  }
  void remember(const std::string& key, Place place) { places_.emplace(key, place); }

  // A key that is absent from the file (a default) takes the place of its nearest enclosing
  // table, so that e.g. a missing `cgroups` points at its `[[pool]]`.
  Place locate(std::string key) const {
    while (!key.empty()) {
      if (auto it = places_.find(key); it != places_.end()) {
        return it->second;
      }
      key = parent_key(key);
    }
    return {};
  }

  // Validation problems on keys that already failed to read would only repeat them.
  void add_validation(std::vector<ConfigProblem> found) {
    std::size_t read_problems = problems_.size();
    for (ConfigProblem& problem : found) {
      bool repeated = std::any_of(
          problems_.begin(), problems_.begin() + read_problems, [&](const ConfigProblem& earlier) {
            return !earlier.key.empty() && overlaps(earlier.key, problem.key);
          });
      if (repeated) {
        continue;
      }
      Place place = locate(problem.key);
      problem.line = place.line;
      problem.column = place.column;
      problems_.push_back(std::move(problem));
    }
  }

  std::vector<ConfigProblem> take_problems() {
    // In file order; problems with no place last, in the order found.
    std::stable_sort(
        problems_.begin(), problems_.end(), [](const ConfigProblem& a, const ConfigProblem& b) {
          auto rank = [](const ConfigProblem& p) {
            return std::pair(p.line == 0 ? std::numeric_limits<int>::max() : p.line, p.column);
          };
          return rank(a) < rank(b);
        });
    return std::move(problems_);
  }

 private:
  std::vector<ConfigProblem> problems_;
  std::map<std::string, Place> places_;
};

// One TOML table being read into a struct. Every key it is asked for is known; whatever else the
// table holds is reported by finish() as unknown.
class Section {
 public:
  Section(Loader& loader, const toml::table& table, std::string prefix)
      : loader_(loader), table_(table), prefix_(std::move(prefix)) {}

  Section(const Section&) = delete;
  Section& operator=(const Section&) = delete;

  void string(std::string_view name, std::string& out) {
    if (const toml::node* node = find(name)) {
      if (auto value = node->value_exact<std::string>()) {
        out = *value;
      } else {
        wrong_type(name, *node, "must be a string");
      }
    }
  }

  void boolean(std::string_view name, bool& out) {
    if (const toml::node* node = find(name)) {
      if (auto value = node->value_exact<bool>()) {
        out = *value;
      } else {
        wrong_type(name, *node, "must be true or false");
      }
    }
  }

  void integer(std::string_view name, int& out) {
    if (const toml::node* node = find(name)) {
      auto value = node->value_exact<std::int64_t>();
      if (!value) {
        wrong_type(name, *node, "must be an integer");
      } else if (*value < std::numeric_limits<int>::min() ||
                 *value > std::numeric_limits<int>::max()) {
        fail(name, "is out of range");
      } else {
        out = static_cast<int>(*value);
      }
    }
  }

  // Integers are numbers too: `force_read_latency_ns = 120`.
  void number(std::string_view name, double& out) {
    if (const toml::node* node = find(name)) {
      if (node->is_number()) {
        out = *node->value<double>();
      } else {
        wrong_type(name, *node, "must be a number");
      }
    }
  }

  void size(std::string_view name, Bytes& out) {
    if (const toml::node* node = find(name)) {
      if (auto size = read_size(name, *node)) {
        out = *size;
      }
    }
  }

  void optional_size(std::string_view name, std::optional<Bytes>& out) {
    if (const toml::node* node = find(name)) {
      if (auto size = read_size(name, *node)) {
        out = *size;
      }
    }
  }

  void duration(std::string_view name, Duration& out) {
    if (const toml::node* node = find(name)) {
      auto text = node->value_exact<std::string>();
      if (!text) {
        wrong_type(name, *node, R"(must be a duration such as "500ms", "30s", "15m" or "1h")");
        return;
      }
      if (auto duration = parse_duration(*text)) {
        out = *duration;
      } else {
        fail(name, duration.error().message());
      }
    }
  }

  void strings(std::string_view name, std::vector<std::string>& out) {
    const toml::node* node = find(name);
    if (node == nullptr) {
      return;
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      wrong_type(name, *node, "must be an array of strings");
      return;
    }
    std::vector<std::string> values;
    bool all_strings = true;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      std::string element_key = key(name) + fmt::format("[{}]", i);
      loader_.remember(element_key, place_of(element.source()));
      if (auto value = element.value_exact<std::string>()) {
        values.push_back(*value);
      } else {
        loader_.problem(element_key, place_of(element.source()),
                        fmt::format("must be a string, not {}", type_name(element)));
        all_strings = false;
      }
    }
    if (all_strings) {
      out = std::move(values);
    }
  }

  // "0660": a string, since a TOML integer 0660 is not octal (and a leading zero is invalid).
  void socket_mode(std::string_view name, unsigned& out) {
    const toml::node* node = find(name);
    if (node == nullptr) {
      return;
    }
    auto text = node->value_exact<std::string>();
    if (!text) {
      wrong_type(name, *node, R"(must be a string of octal digits such as "0660")");
      return;
    }
    unsigned mode = 0;
    const char* end = text->data() + text->size();
    auto [stop, error] = std::from_chars(text->data(), end, mode, 8);
    if (text->empty() || error != std::errc{} || stop != end) {
      fail(name,
           fmt::format(R"(must be a string of octal digits such as "0660", not "{}")", *text));
    } else if (mode > 0777) {
      fail(name, R"(must be at most "0777")");
    } else {
      out = mode;
    }
  }

  void nodes(std::string_view name, std::optional<std::vector<NodeId>>& out) {
    const toml::node* node = find(name);
    if (node == nullptr) {
      return;
    }
    constexpr std::string_view kExpected = R"(must be "auto" or an array of node ids)";
    if (auto text = node->value_exact<std::string>()) {
      if (*text == "auto") {
        out.reset();
      } else {
        fail(name, fmt::format(R"({}, not "{}")", kExpected, *text));
      }
      return;
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      wrong_type(name, *node, kExpected);
      return;
    }
    std::vector<NodeId> ids;
    bool all_ids = true;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      std::string element_key = key(name) + fmt::format("[{}]", i);
      loader_.remember(element_key, place_of(element.source()));
      auto id = element.value_exact<std::int64_t>();
      if (!id) {
        loader_.problem(element_key, place_of(element.source()),
                        fmt::format("must be an integer node id, not {}", type_name(element)));
        all_ids = false;
      } else if (*id < std::numeric_limits<NodeId>::min() ||
                 *id > std::numeric_limits<NodeId>::max()) {
        loader_.problem(element_key, place_of(element.source()), "is out of range");
        all_ids = false;
      } else {
        ids.push_back(static_cast<NodeId>(*id));
      }
    }
    if (all_ids) {
      out = std::move(ids);
    }
  }

  // A sub-table; nullptr when absent or not a table (then a problem is reported).
  const toml::table* table(std::string_view name) {
    const toml::node* node = find(name);
    if (node == nullptr) {
      return nullptr;
    }
    const toml::table* table = node->as_table();
    if (table == nullptr) {
      wrong_type(name, *node, fmt::format("must be a table ([{}])", key(name)));
    }
    return table;
  }

  // [[name]] entries; nullptr when absent or not an array (then a problem is reported). Entries
  // that are not tables are reported here and come back as nullptr so indices stay aligned.
  std::vector<const toml::table*> array_of_tables(std::string_view name) {
    std::vector<const toml::table*> tables;
    const toml::node* node = find(name);
    if (node == nullptr) {
      return tables;
    }
    const toml::array* array = node->as_array();
    if (array == nullptr) {
      wrong_type(name, *node, fmt::format("must be an array of tables ([[{}]])", key(name)));
      return tables;
    }
    for (std::size_t i = 0; i < array->size(); ++i) {
      const toml::node& element = *array->get(i);
      std::string element_key = key(name) + fmt::format("[{}]", i);
      loader_.remember(element_key, place_of(element.source()));
      tables.push_back(element.as_table());
      if (tables.back() == nullptr) {
        loader_.problem(element_key, place_of(element.source()),
                        fmt::format("must be a table, not {}", type_name(element)));
      }
    }
    return tables;
  }

  std::string key(std::string_view name) const {
    return prefix_.empty() ? std::string(name) : prefix_ + "." + std::string(name);
  }

  // Every key of the table that nobody asked for is unknown: a typo must not silently leave a
  // default in force.
  void finish() {
    for (auto&& [name, node] : table_) {
      if (std::find(known_.begin(), known_.end(), name.str()) != known_.end()) {
        continue;
      }
      std::string message = "unknown key";
      if (auto suggestion = closest_known(name.str())) {
        message += fmt::format(R"( (did you mean "{}"?))", *suggestion);
      }
      loader_.problem(key(name.str()), place_of_entry(name, node), std::move(message));
    }
  }

 private:
  const toml::node* find(std::string_view name) {
    known_.emplace_back(name);
    auto it = table_.find(name);
    if (it == table_.end()) {
      return nullptr;
    }
    loader_.remember(key(name), place_of_entry(it->first, it->second));
    return &it->second;
  }

  void fail(std::string_view name, std::string message) {
    loader_.problem(key(name), loader_.locate(key(name)), std::move(message));
  }

  void wrong_type(std::string_view name, const toml::node& node, std::string_view expected) {
    fail(name, fmt::format("{}, not {}", expected, type_name(node)));
  }

  std::optional<Bytes> read_size(std::string_view name, const toml::node& node) {
    if (auto bytes = node.value_exact<std::int64_t>()) {
      return *bytes;
    }
    auto text = node.value_exact<std::string>();
    if (!text) {
      wrong_type(name, node, R"(must be a size such as "512MiB" or an integer of bytes)");
      return std::nullopt;
    }
    auto size = parse_size(*text);
    if (!size) {
      fail(name, size.error().message());
      return std::nullopt;
    }
    return *size;
  }

  std::optional<std::string_view> closest_known(std::string_view name) const {
    std::optional<std::string_view> best;
    std::size_t best_distance = 3;  // beyond two edits it is a different word, not a typo
    for (const std::string& known : known_) {
      std::size_t distance = edit_distance(name, known);
      if (distance < best_distance && distance < known.size()) {
        best = known;
        best_distance = distance;
      }
    }
    return best;
  }

  Loader& loader_;
  const toml::table& table_;
  std::string prefix_;
  std::vector<std::string> known_;
};

void read_daemon(Section& section, DaemonConfig& daemon) {
  section.duration("interval", daemon.interval);
  section.boolean("dry_run", daemon.dry_run);
  section.string("log_level", daemon.log_level);
  section.string("state_dir", daemon.state_dir);
  section.string("lock_file", daemon.lock_file);
}

void read_admin(Section& section, AdminConfig& admin) {
  section.string("socket", admin.socket);
  section.socket_mode("socket_mode", admin.socket_mode);
  section.string("admin_group", admin.admin_group);
  section.integer("max_clients", admin.max_clients);
  section.size("max_request_bytes", admin.max_request_bytes);
  section.duration("idle_timeout", admin.idle_timeout);
}

void read_policy(Section& section, core::PolicyConfig& policy) {
  section.number("grace_read_latency_ns", policy.grace_read_latency_ns);
  section.number("force_read_latency_ns", policy.force_read_latency_ns);
  section.number("grace_latency_gap_ns", policy.grace_latency_gap_ns);
  section.integer("grace_max_distance", policy.grace_max_distance);
  section.number("grace_gap_ratio", policy.grace_gap_ratio);
  section.number("force_gap_ratio", policy.force_gap_ratio);
  section.number("bandwidth_high_ratio", policy.bandwidth_high_ratio);
  section.number("bandwidth_medium_ratio", policy.bandwidth_medium_ratio);
  section.size("container_min_bytes", policy.container_min_bytes);
  section.size("container_max_bytes", policy.container_max_bytes);
  section.size("reclaim_container_min_bytes", policy.reclaim_container_min_bytes);
  section.size("reclaim_container_max_bytes", policy.reclaim_container_max_bytes);
  section.size("round_max_bytes", policy.round_max_bytes);
  section.size("reclaim_round_max_bytes", policy.reclaim_round_max_bytes);
  section.size("reclaim_round_enough_bytes", policy.reclaim_round_enough_bytes);
  section.strings("supported_pools", policy.supported_pools);
  section.string("reclaim_pool", policy.reclaim_pool);
  section.number("migrate_threshold", policy.migrate_threshold);
  section.duration("min_interval", policy.min_interval);
  section.duration("ping_pong_window", policy.ping_pong_window);
}

void read_pool(Section& section, PoolConfig& pool) {
  section.string("name", pool.name);
  section.strings("cgroups", pool.cgroups);
  section.nodes("nodes", pool.nodes);
}

void read_metrics(Loader& loader, Section& section, MetricsConfig& metrics) {
  section.string("latency", metrics.latency);
  section.string("bandwidth", metrics.bandwidth);
  if (const toml::table* table = section.table("file")) {
    Section file(loader, *table, section.key("file"));
    file.string("path", metrics.file.path);
    file.string("format", metrics.file.format);
    file.duration("max_age", metrics.file.max_age);
    file.string("latency_metric", metrics.file.latency_metric);
    file.string("bandwidth_metric", metrics.file.bandwidth_metric);
    file.finish();
  }
  if (const toml::table* table = section.table("probe")) {
    Section probe(loader, *table, section.key("probe"));
    probe.size("buffer_bytes", metrics.probe.buffer_bytes);
    probe.integer("loads_per_sample", metrics.probe.loads_per_sample);
    probe.duration("sample_interval", metrics.probe.sample_interval);
    probe.number("cpu_budget", metrics.probe.cpu_budget);
    probe.finish();
  }
  if (const toml::table* table = section.table("perf")) {
    Section perf(loader, *table, section.key("perf"));
    perf.duration("window", metrics.perf.window);
    perf.string("read_event", metrics.perf.read_event);
    perf.string("write_event", metrics.perf.write_event);
    perf.string("queue_occupancy_event", metrics.perf.queue_occupancy_event);
    perf.string("queue_inserts_event", metrics.perf.queue_inserts_event);
    perf.string("clock_event", metrics.perf.clock_event);
    perf.finish();
  }
  if (const toml::table* table = section.table("resctrl")) {
    Section resctrl(loader, *table, section.key("resctrl"));
    resctrl.duration("window", metrics.resctrl.window);
    resctrl.finish();
  }
}

void read_actuator(Section& section, ActuatorConfig& actuator) {
  section.number("rate_limit", actuator.rate_limit_mib_per_s);
  section.duration("call_target", actuator.call_target);
  section.boolean("move_shared", actuator.move_shared);
  section.optional_size("min_free_bytes", actuator.min_free_bytes);
  section.duration("job_deadline", actuator.job_deadline);
}

void read_eviction(Section& section, EvictionConfig& eviction) {
  section.string("action", eviction.action);
  section.strings("exec", eviction.exec);
  section.duration("timeout", eviction.timeout);
}

void read_export(Section& section, ExportConfig& export_) {
  section.string("textfile", export_.textfile);
  section.string("audit_log", export_.audit_log);
  section.size("audit_log_max_bytes", export_.audit_log_max_bytes);
}

template <typename Read>
void read_section(Loader& loader, Section& root, std::string_view name, Read read) {
  if (const toml::table* table = root.table(name)) {
    Section section(loader, *table, std::string(name));
    read(section);
    section.finish();
  }
}

ConfigLoad load_document(const toml::table& document) {
  Loader loader;
  ConfigLoad load;
  Config& config = load.config;
  Section root(loader, document, "");
  read_section(loader, root, "daemon", [&](Section& s) { read_daemon(s, config.daemon); });
  read_section(loader, root, "admin", [&](Section& s) { read_admin(s, config.admin); });
  read_section(loader, root, "policy", [&](Section& s) { read_policy(s, config.policy); });
  std::vector<const toml::table*> pools = root.array_of_tables("pool");
  for (std::size_t i = 0; i < pools.size(); ++i) {
    PoolConfig& pool = config.pools.emplace_back();
    if (pools[i] != nullptr) {
      Section section(loader, *pools[i], fmt::format("pool[{}]", i));
      read_pool(section, pool);
      section.finish();
    }
  }
  read_section(loader, root, "metrics",
               [&](Section& s) { read_metrics(loader, s, config.metrics); });
  read_section(loader, root, "actuator", [&](Section& s) { read_actuator(s, config.actuator); });
  read_section(loader, root, "eviction", [&](Section& s) { read_eviction(s, config.eviction); });
  read_section(loader, root, "export", [&](Section& s) { read_export(s, config.export_); });
  root.finish();

  loader.add_validation(validate_config(config));
  load.problems = loader.take_problems();
  return load;
}

}  // namespace

ConfigLoad load_config_string(std::string_view toml, std::string_view source_name) {
  toml::table document;
  try {
    document = toml::parse(toml, source_name);
  } catch (const toml::parse_error& error) {
    // toml++ stops at the first syntax error; nothing after it can be read reliably.
    ConfigLoad load;
    Place place = place_of(error.source());
    load.problems.push_back(
        ConfigProblem{"", std::string(error.description()), place.line, place.column});
    return load;
  }
  return load_document(document);
}

ConfigLoad load_config_file(const std::filesystem::path& path) {
  auto cannot_read = [&](int code) {
    ConfigLoad load;
    load.problems.push_back(
        ConfigProblem{"", make_error(code, "cannot read " + path.string()).message()});
    return load;
  };
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(path.c_str(), "rb"),
                                                       &std::fclose);
  if (!file) {
    return cannot_read(errno);
  }
  std::string content;
  char buffer[8192];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) {
    content.append(buffer, count);
  }
  if (std::ferror(file.get())) {
    return cannot_read(errno);
  }
  return load_config_string(content, path.string());
}

}  // namespace nb::config
