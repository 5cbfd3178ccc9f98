#include "tests/daemon/service/export/exposition_validator.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <variant>

namespace nb::testing {

namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
  std::string name;
  Labels labels;
  double value = 0;
};

struct Family {
  std::string type;
  bool has_help = false;
  bool has_type = false;
  bool has_samples = false;
};

// The buckets, sum and count of one histogram series (its labels without `le`).
struct HistogramSeries {
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative count), in text order
  std::optional<double> sum;
  std::optional<double> count;
};

bool is_name_start(char c, bool colon_allowed) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         (colon_allowed && c == ':');
}

bool is_name_char(char c, bool colon_allowed) {
  return is_name_start(c, colon_allowed) || (c >= '0' && c <= '9');
}

// Metric names may contain colons; label names may not.
std::size_t name_length(std::string_view text, bool colon_allowed) {
  if (text.empty() || !is_name_start(text[0], colon_allowed)) {
    return 0;
  }
  std::size_t n = 1;
  while (n < text.size() && is_name_char(text[n], colon_allowed)) {
    ++n;
  }
  return n;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

// Go's ParseFloat as Prometheus uses it, minus the spellings no exporter should write
// ("inf", "infinity", hex floats).
std::optional<double> parse_value(std::string_view token) {
  if (token == "+Inf") {
    return std::numeric_limits<double>::infinity();
  }
  if (token == "-Inf") {
    return -std::numeric_limits<double>::infinity();
  }
  if (token == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (token.empty() || token.find_first_not_of("0123456789.eE+-") != std::string_view::npos) {
    return std::nullopt;
  }
  std::string_view digits = token;
  if (digits[0] == '+') {
    digits.remove_prefix(1);
  }
  double value = 0;
  auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (error != std::errc() || end != digits.data() + digits.size()) {
    return std::nullopt;
  }
  return value;
}

// Reads a label's value up to its closing quote (the opening one already read), unescaping \\,
// \" and \n; returns the problem, if any.
std::optional<std::string> read_label_value(std::string_view& rest, const std::string& label,
                                            std::string& value) {
  while (!rest.empty()) {
    char c = rest[0];
    rest.remove_prefix(1);
    if (c == '"') {
      return std::nullopt;
    }
    if (c != '\\') {
      value += c;
      continue;
    }
    if (rest.empty()) {
      break;
    }
    char escaped = rest[0];
    rest.remove_prefix(1);
    if (escaped == '\\' || escaped == '"') {
      value += escaped;
    } else if (escaped == 'n') {
      value += '\n';
    } else {
      return "label " + label + " has the invalid escape \\" + std::string(1, escaped);
    }
  }
  return "label " + label + " value is not closed";
}

// Parses `name{labels} value`; returns the problem when the line is malformed.
std::variant<Sample, std::string> parse_sample(std::string_view line) {
  Sample sample;
  std::size_t n = name_length(line, true);
  if (n == 0) {
    return std::string("invalid metric name");
  }
  sample.name = std::string(line.substr(0, n));
  std::string_view rest = line.substr(n);
  if (!rest.empty() && rest[0] == '{') {
    rest.remove_prefix(1);
    std::set<std::string> names;
    while (true) {
      if (!rest.empty() && rest[0] == '}') {
        rest.remove_prefix(1);
        break;
      }
      std::size_t label_length = name_length(rest, false);
      if (label_length == 0) {
        return std::string("invalid label name");
      }
      std::string label(rest.substr(0, label_length));
      if (label.rfind("__", 0) == 0) {
        return "label name " + label + " is reserved (starts with __)";
      }
      if (!names.insert(label).second) {
        return "label " + label + " given twice";
      }
      rest.remove_prefix(label_length);
      if (rest.size() < 2 || rest[0] != '=' || rest[1] != '"') {
        return "label " + label + " has no =\"value\"";
      }
      rest.remove_prefix(2);
      std::string value;
      if (auto problem = read_label_value(rest, label, value)) {
        return *problem;
      }
      sample.labels.emplace_back(std::move(label), std::move(value));
      if (!rest.empty() && rest[0] == ',') {
        rest.remove_prefix(1);
      } else if (rest.empty() || rest[0] != '}') {
        return std::string("labels are not separated by commas or closed by }");
      }
    }
  }
  if (rest.empty() || rest[0] != ' ') {
    return std::string("no single space before the value");
  }
  rest.remove_prefix(1);
  auto space = rest.find(' ');
  std::string_view token = rest.substr(0, space);
  auto value = parse_value(token);
  if (!value) {
    return "value \"" + std::string(token) + "\" is not a number";
  }
  sample.value = *value;
  if (space != std::string_view::npos) {
    return std::string("text after the value (timestamps are not allowed, nor trailing spaces)");
  }
  return sample;
}

bool valid_help_text(std::string_view text) {
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\') {
      if (i + 1 == text.size() || (text[i + 1] != '\\' && text[i + 1] != 'n')) {
        return false;
      }
      ++i;
    }
  }
  return true;
}

std::string series_key(const std::string& name, Labels labels, std::string_view without = "") {
  std::sort(labels.begin(), labels.end());
  std::string key = name + "{";
  for (const auto& [label, value] : labels) {
    if (label == without) {
      continue;
    }
    key += label + "=\"" + value + "\",";
  }
  return key + "}";
}

class Validator {
 public:
  void line(std::size_t number, std::string_view text) {
    auto where = "line " + std::to_string(number) + ": ";
    if (text.empty()) {
      problem(where + "empty line");
      return;
    }
    if (text[0] == '#') {
      comment(where, text);
      return;
    }
    auto parsed = parse_sample(text);
    if (auto* error = std::get_if<std::string>(&parsed)) {
      problem(where + *error + ": " + std::string(text));
      return;
    }
    sample(where, std::get<Sample>(std::move(parsed)));
  }

  std::vector<std::string> finish() {
    for (const auto& [family, series] : histograms_) {
      for (const auto& [labels, h] : series) {
        check_histogram(family + labels, h);
      }
    }
    return std::move(problems_);
  }

  void problem(std::string text) { problems_.push_back(std::move(text)); }

 private:
  void comment(const std::string& where, std::string_view text) {
    bool help = text.rfind("# HELP ", 0) == 0;
    bool type = text.rfind("# TYPE ", 0) == 0;
    if (!help && !type) {
      return;  // a plain comment
    }
    std::string_view rest = text.substr(7);
    std::size_t n = name_length(rest, true);
    if (n == 0 || n == rest.size() || rest[n] != ' ' || n + 1 == rest.size()) {
      problem(where + "malformed " + (help ? "HELP" : "TYPE") + " line: " + std::string(text));
      return;
    }
    std::string name(rest.substr(0, n));
    std::string_view tail = rest.substr(n + 1);
    Family& family = families_[name];
    if (family.has_samples) {
      problem(where + (help ? "HELP" : "TYPE") + " for " + name + " after its samples");
    }
    close_current_unless(name);
    if (help) {
      if (family.has_help) {
        problem(where + "second HELP for " + name);
      }
      if (!valid_help_text(tail)) {
        problem(where + "HELP of " + name + " has an invalid escape");
      }
      family.has_help = true;
      return;
    }
    if (family.has_type) {
      problem(where + "second TYPE for " + name);
    }
    static const std::set<std::string_view> kTypes{"counter", "gauge", "histogram", "summary",
                                                   "untyped"};
    if (kTypes.count(tail) == 0) {
      problem(where + "unknown type \"" + std::string(tail) + "\" for " + name);
    }
    if (tail == "counter" && !ends_with(name, "_total")) {
      problem(where + "counter " + name + " does not end in _total");
    }
    family.has_type = true;
    family.type = std::string(tail);
  }

  // The family a sample belongs to: its own name, or a histogram's or summary's stem.
  std::string family_of(const std::string& name) const {
    if (auto it = families_.find(name); it != families_.end() && it->second.has_type) {
      return name;
    }
    for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
      if (!ends_with(name, suffix)) {
        continue;
      }
      std::string stem = name.substr(0, name.size() - suffix.size());
      auto it = families_.find(stem);
      if (it != families_.end() && (it->second.type == "histogram" ||
                                    (it->second.type == "summary" && suffix != "_bucket"))) {
        return stem;
      }
    }
    return name;
  }

  // Prometheus wants each family's lines in one group.
  void close_current_unless(const std::string& name) {
    if (current_ != name) {
      if (!current_.empty()) {
        closed_.insert(current_);
      }
      current_ = name;
    }
  }

  void sample(const std::string& where, Sample s) {
    std::string name = family_of(s.name);
    Family& family = families_[name];
    if (!family.has_help || !family.has_type) {
      problem(where + "sample " + s.name + " has no " +
              (family.has_type ? "HELP" : (family.has_help ? "TYPE" : "HELP and TYPE")) +
              " before it");
    }
    if (closed_.count(name) != 0) {
      problem(where + "samples of " + name + " are not in one group");
    }
    close_current_unless(name);
    family.has_samples = true;
    if (!series_.insert(series_key(s.name, s.labels)).second) {
      problem(where + "duplicate series " + series_key(s.name, s.labels));
    }
    if (family.type == "counter" && (std::isnan(s.value) || s.value < 0)) {
      problem(where + "counter " + s.name + " is negative or NaN");
    }
    if (family.type == "histogram") {
      histogram_sample(where, name, s);
    }
  }

  void histogram_sample(const std::string& where, const std::string& family, const Sample& s) {
    auto le = std::find_if(s.labels.begin(), s.labels.end(),
                           [](const auto& label) { return label.first == "le"; });
    HistogramSeries& h = histograms_[family][series_key("", s.labels, "le")];
    if (s.name == family + "_bucket") {
      if (le == s.labels.end()) {
        problem(where + s.name + " has no le label");
        return;
      }
      auto bound = parse_value(le->second);
      if (!bound || std::isnan(*bound)) {
        problem(where + s.name + " has le=\"" + le->second + "\", not a number");
        return;
      }
      h.buckets.emplace_back(*bound, s.value);
      return;
    }
    if (le != s.labels.end()) {
      problem(where + s.name + " carries an le label");
    }
    if (s.name == family + "_sum") {
      h.sum = s.value;
    } else if (s.name == family + "_count") {
      h.count = s.value;
    } else {
      problem(where + "histogram sample " + s.name + " is not _bucket, _sum or _count");
    }
  }

  void check_histogram(const std::string& series, const HistogramSeries& h) {
    if (h.buckets.empty()) {
      problem(series + ": histogram without buckets");
    }
    for (std::size_t i = 1; i < h.buckets.size(); ++i) {
      if (!(h.buckets[i].first > h.buckets[i - 1].first)) {
        problem(series + ": bucket bounds do not increase");
      }
      if (h.buckets[i].second < h.buckets[i - 1].second) {
        problem(series + ": bucket counts are not cumulative");
      }
    }
    bool ends_in_inf =
        !h.buckets.empty() && std::isinf(h.buckets.back().first) && h.buckets.back().first > 0;
    if (!ends_in_inf) {
      problem(series + ": last bucket is not le=\"+Inf\"");
    }
    if (!h.sum) {
      problem(series + ": no _sum");
    }
    if (!h.count) {
      problem(series + ": no _count");
    } else if (ends_in_inf && *h.count != h.buckets.back().second) {
      problem(series + ": _count differs from the +Inf bucket");
    }
  }

  std::map<std::string, Family> families_;
  std::string current_;
  std::set<std::string> closed_;
  std::set<std::string> series_;
  std::map<std::string, std::map<std::string, HistogramSeries>> histograms_;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> exposition_problems(std::string_view text) {
  Validator validator;
  std::size_t number = 1;
  while (!text.empty()) {
    auto newline = text.find('\n');
    if (newline == std::string_view::npos) {
      validator.line(number, text);
      validator.problem("the text does not end with a newline");
      break;
    }
    validator.line(number, text.substr(0, newline));
    text.remove_prefix(newline + 1);
    ++number;
  }
  return validator.finish();
}

}  // namespace nb::testing
