#include "daemon/metrics/prometheus_text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace nb::metrics {
namespace {

bool is_name_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) != 0 || c == '_' || c == ':';
}

bool is_name_char(char c) {
  return is_name_start(c) || std::isdigit(static_cast<unsigned char>(c)) != 0;
}

// A cursor over one line; every parse step reports failure with a message.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : rest_(line) {}

  void skip_blanks() {
    while (!rest_.empty() && (rest_.front() == ' ' || rest_.front() == '\t')) {
      rest_.remove_prefix(1);
    }
  }
  bool done() const { return rest_.empty(); }
  bool take(char c) {
    if (!rest_.empty() && rest_.front() == c) {
      rest_.remove_prefix(1);
      return true;
    }
    return false;
  }
  std::string name() {
    std::size_t length = 0;
    if (!rest_.empty() && is_name_start(rest_.front())) {
      while (length < rest_.size() && is_name_char(rest_[length])) {
        ++length;
      }
    }
    std::string result(rest_.substr(0, length));
    rest_.remove_prefix(length);
    return result;
  }
  std::string_view word() {
    std::size_t length = 0;
    while (length < rest_.size() && rest_[length] != ' ' && rest_[length] != '\t') {
      ++length;
    }
    auto result = rest_.substr(0, length);
    rest_.remove_prefix(length);
    return result;
  }
  // A double-quoted label value with the format's three escapes (\\, \", \n).
  std::optional<std::string> quoted() {
    if (!take('"')) {
      return std::nullopt;
    }
    std::string value;
    while (!rest_.empty()) {
      char c = rest_.front();
      rest_.remove_prefix(1);
      if (c == '"') {
        return value;
      }
      if (c == '\\') {
        if (rest_.empty()) {
          return std::nullopt;
        }
        char escaped = rest_.front();
        rest_.remove_prefix(1);
        value += escaped == 'n' ? '\n' : escaped;
      } else {
        value += c;
      }
    }
    return std::nullopt;
  }

 private:
  std::string_view rest_;
};

std::optional<double> parse_value(std::string_view text) {
  if (text == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  if (text == "+Inf" || text == "Inf") {
    return std::numeric_limits<double>::infinity();
  }
  if (text == "-Inf") {
    return -std::numeric_limits<double>::infinity();
  }
  if (text.starts_with('+')) {
    text.remove_prefix(1);
  }
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

std::optional<std::int64_t> parse_timestamp(std::string_view text) {
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    return std::nullopt;
  }
  return value;
}

Result<Ok> parse_comment(LineReader& line, PrometheusText& out) {
  line.skip_blanks();
  std::string keyword = line.name();
  if (keyword != "TYPE") {
    return Ok{};  // HELP and free comments carry nothing we use
  }
  line.skip_blanks();
  std::string family = line.name();
  line.skip_blanks();
  std::string type(line.word());
  if (family.empty() || type.empty()) {
    return make_error(0, "malformed TYPE line");
  }
  out.types[family] = type;
  return Ok{};
}

Result<PrometheusSample> parse_sample(LineReader& line) {
  PrometheusSample sample;
  sample.name = line.name();
  if (sample.name.empty()) {
    return make_error(0, "expected a metric name");
  }
  if (line.take('{')) {
    while (true) {
      line.skip_blanks();
      if (line.take('}')) {
        break;
      }
      std::string label = line.name();
      if (label.empty()) {
        return make_error(0, "expected a label name in " + sample.name);
      }
      line.skip_blanks();
      if (!line.take('=')) {
        return make_error(0, "expected '=' after label " + label);
      }
      line.skip_blanks();
      auto value = line.quoted();
      if (!value) {
        return make_error(0, "unterminated or unquoted value of label " + label);
      }
      sample.labels[label] = *value;
      line.skip_blanks();
      if (line.take(',')) {
        continue;
      }
      if (!line.take('}')) {
        return make_error(0, "expected ',' or '}' in the labels of " + sample.name);
      }
      break;
    }
  }
  line.skip_blanks();
  auto value_text = line.word();
  auto value = parse_value(value_text);
  if (!value) {
    return make_error(0, "bad value \"" + std::string(value_text) + "\" for " + sample.name);
  }
  sample.value = *value;
  line.skip_blanks();
  if (!line.done()) {
    auto stamp_text = line.word();
    auto stamp = parse_timestamp(stamp_text);
    if (!stamp) {
      return make_error(0, "bad timestamp \"" + std::string(stamp_text) + "\"");
    }
    sample.timestamp_ms = *stamp;
    line.skip_blanks();
    if (!line.done()) {
      return make_error(0, "unexpected text after the timestamp of " + sample.name);
    }
  }
  return sample;
}

}  // namespace

std::string series_name(const PrometheusSample& sample) {
  std::string text = sample.name;
  if (sample.labels.empty()) {
    return text;
  }
  text += '{';
  for (const auto& [label, value] : sample.labels) {
    if (text.back() != '{') {
      text += ',';
    }
    text += label + "=\"";
    for (char c : value) {
      if (c == '\\' || c == '"') {
        text += '\\';
        text += c;
      } else if (c == '\n') {
        text += "\\n";
      } else {
        text += c;
      }
    }
    text += '"';
  }
  return text + '}';
}

std::string PrometheusText::type_of(const std::string& family) const {
  auto it = types.find(family);
  return it == types.end() ? "untyped" : it->second;
}

Result<PrometheusText> parse_prometheus_text(std::string_view text) {
  PrometheusText out;
  int line_number = 0;
  while (!text.empty()) {
    auto newline = text.find('\n');
    std::string_view raw = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    ++line_number;
    if (!raw.empty() && raw.back() == '\r') {
      raw.remove_suffix(1);
    }
    LineReader line(raw);
    line.skip_blanks();
    if (line.done()) {
      continue;
    }
    auto where = [line_number](const Error& error) {
      return make_error(0, "line " + std::to_string(line_number) + ": " + error.context);
    };
    if (line.take('#')) {
      auto comment = parse_comment(line, out);
      if (!comment) {
        return where(comment.error());
      }
      continue;
    }
    auto sample = parse_sample(line);
    if (!sample) {
      return where(sample.error());
    }
    out.samples.push_back(std::move(*sample));
  }
  return out;
}

}  // namespace nb::metrics
