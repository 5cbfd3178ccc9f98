// `numabalancerctl config`: the effective configuration in the config file's own TOML form, so
// that it reads back: `numabalancerd --check-config` takes what this prints.

#include <fmt/format.h>

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

// A TOML basic string. JSON's escapes are TOML's too, but JSON leaves DEL raw, which TOML
// refuses.
std::string toml_string(const std::string& text) {
  std::string out = json(text).dump(-1, ' ', false, json::error_handler_t::replace);
  std::string escaped;
  for (char c : out) {
    escaped += c == '\x7f' ? std::string("\\u007F") : std::string(1, c);
  }
  return escaped;
}

std::string toml_value(const json& value);

// A table nested in a key's value, such as a node map: { "0" = 92.0, "1" = 141.5 }.
std::string inline_table(const json& object) {
  std::string out;
  for (const auto& [key, value] : object.items()) {
    out += (out.empty() ? "" : ", ") + toml_string(key) + " = " + toml_value(value);
  }
  return out.empty() ? "{}" : "{ " + out + " }";
}

std::string toml_value(const json& value) {
  if (value.is_string()) {
    return toml_string(value.get<std::string>());
  }
  if (value.is_object()) {
    return inline_table(value);
  }
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value) {
      out += (out.empty() ? "" : ", ") + toml_value(item);
    }
    return "[" + out + "]";
  }
  return value.dump();  // numbers and booleans are written alike; a whole float keeps its ".0"
}

// The plain keys of one table.
std::string keys_of(const json& table) {
  std::string out;
  for (const auto& [key, value] : table.items()) {
    out += key + " = " + toml_value(value) + "\n";
  }
  return out;
}

// [name] with its keys, then each nested section as [name.sub]; an object deeper down (a node
// map) is an inline table.
std::string format_section(const std::string& name, const json& section) {
  json plain = json::object();
  std::string nested;
  for (const auto& [key, value] : section.items()) {
    if (value.is_object()) {
      nested += "\n[" + name + "." + key + "]\n" + keys_of(value);
    } else {
      plain[key] = value;
    }
  }
  return "\n[" + name + "]\n" + keys_of(plain) + nested;
}

std::string comment(const json& value) {
  std::string text = cell_text(value);
  for (char& c : text) {
    c = c == '\n' ? ' ' : c;
  }
  return "# " + text + "\n";
}

}  // namespace

std::string format_config(const json& r) {
  std::string out;
  if (r.contains("file")) {
    out += comment(field(r, "file"));
  }
  for (const auto& [name, section] : r.items()) {
    if (name == "file") {
      continue;
    }
    if (section.is_array()) {
      for (const auto& item : section) {
        out += "\n[[" + name + "]]\n" + (item.is_object() ? keys_of(item) : "");
      }
    } else if (section.is_object()) {
      out += format_section(name, section);
    }
  }
  return out;
}

}  // namespace nb::ctl
