// `numabalancerctl config`: the effective configuration in the config file's own TOML form.

#include "daemon/ctl/cells.hpp"
#include "daemon/ctl/result_views.hpp"

namespace nb::ctl {

namespace {

using nlohmann::json;

// Plain keys first, then nested tables, so that the output reads back as TOML.
void format_config_section(const json& section, const std::string& prefix, std::string& out) {
  std::string nested;
  for (const auto& [key, value] : section.items()) {
    if (value.is_object()) {
      format_config_section(value, prefix.empty() ? key : prefix + "." + key, nested);
    } else {
      out += key + " = " + value.dump() + "\n";
    }
  }
  out += nested;
}

std::string format_table_section(const std::string& name, const json& section) {
  std::string out = "\n[" + name + "]\n";
  std::string body;
  std::string nested;
  for (const auto& [key, value] : section.items()) {
    if (value.is_object()) {
      nested += "\n[" + name + "." + key + "]\n";
      format_config_section(value, "", nested);
    } else {
      body += key + " = " + value.dump() + "\n";
    }
  }
  return out + body + nested;
}

}  // namespace

std::string format_config(const json& r) {
  std::string out;
  if (r.contains("file")) {
    out += "# " + cell_text(field(r, "file")) + "\n";
  }
  for (const auto& [name, section] : r.items()) {
    if (name == "file") {
      continue;
    }
    if (section.is_array()) {
      for (const auto& item : section) {
        out += "\n[[" + name + "]]\n";
        format_config_section(item, "", out);
      }
      continue;
    }
    out += format_table_section(name, section);
  }
  return out;
}

}  // namespace nb::ctl
