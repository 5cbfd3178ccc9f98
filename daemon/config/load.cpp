#include "daemon/config/load.hpp"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "daemon/config/keys.hpp"
#include "daemon/config/toml_place.hpp"
#include "daemon/config/toml_section.hpp"
#include "daemon/config/validate.hpp"

namespace nb::config {
namespace {

// A [name] table of the root read by its key table; absent, it keeps its defaults.
template <typename S>
void read_section(Section& parent, std::string_view name, KeyTable<S> keys, S& values) {
  if (const toml::table* table = parent.table(name)) {
    Section section(parent.loader(), *table, parent.key(name));
    read_keys(section, keys, values);
    section.finish();
  }
}

void read_pools(Section& root, std::vector<PoolConfig>& pools) {
  std::vector<const toml::table*> tables = root.array_of_tables("pool");
  for (std::size_t i = 0; i < tables.size(); ++i) {
    PoolConfig& pool = pools.emplace_back();
    if (tables[i] != nullptr) {
      Section section(root.loader(), *tables[i], fmt::format("pool[{}]", i));
      read_keys(section, pool_keys(), pool);
      section.finish();
    }
  }
}

// [metrics] holds the choice of providers and a sub-table per provider.
void read_metrics(Section& root, MetricsConfig& metrics) {
  if (const toml::table* table = root.table("metrics")) {
    Section section(root.loader(), *table, "metrics");
    read_keys(section, metrics_keys(), metrics);
    for_each_metrics_section(metrics, [&](std::string_view name, auto keys, auto& provider) {
      read_section(section, name, keys, provider);
    });
    section.finish();
  }
}

ConfigLoad load_document(const toml::table& document, const ExtensionNames& names) {
  Loader loader;
  ConfigLoad load;
  Config& config = load.config;
  Section root(loader, document, "");
  read_section(root, "daemon", daemon_keys(), config.daemon);
  read_section(root, "admin", admin_keys(), config.admin);
  read_section(root, "policy", policy_keys(), config.policy);
  read_pools(root, config.pools);
  read_metrics(root, config.metrics);
  read_section(root, "actuator", actuator_keys(), config.actuator);
  read_section(root, "eviction", eviction_keys(), config.eviction);
  read_section(root, "export", export_keys(), config.export_);
  root.finish();

  loader.add_validation(validate_config(
      config, names, [&loader](std::string_view key) { return loader.wrote(key); }));
  load.problems = loader.take_problems();
  return load;
}

}  // namespace

ConfigLoad load_config_string(std::string_view toml, std::string_view source_name,
                              const ExtensionNames& names) {
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
  return load_document(document, names);
}

ConfigLoad load_config_file(const std::filesystem::path& path, const ExtensionNames& names) {
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
  return load_config_string(content, path.string(), names);
}

}  // namespace nb::config
