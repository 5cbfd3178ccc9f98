// nb_vm_json: reads one JSON document on stdin and prints the value at each JSON pointer given
// (RFC 6901, e.g. /containers/0/bytes_moved), one per line: strings bare, everything else as
// compact JSON, "null" when the pointer leads nowhere. With --length, prints array/object sizes.
// The guest has no jq; the scenarios use this to read numabalancerd's JSON reports.

#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  bool length = false;
  int first = 1;
  if (argc > 1 && std::string_view(argv[1]) == "--length") {
    length = true;
    first = 2;
  }
  if (first >= argc) {
    std::fprintf(stderr, "usage: nb_vm_json [--length] POINTER... < document.json\n");
    return 2;
  }
  nlohmann::json document = nlohmann::json::parse(std::cin, nullptr, false);
  if (document.is_discarded()) {
    std::fprintf(stderr, "nb_vm_json: stdin is not one JSON document\n");
    return 1;
  }
  for (int i = first; i < argc; ++i) {
    nlohmann::json::json_pointer pointer;
    try {
      pointer = nlohmann::json::json_pointer(argv[i]);
    } catch (const nlohmann::json::exception& e) {
      std::fprintf(stderr, "nb_vm_json: bad pointer %s: %s\n", argv[i], e.what());
      return 2;
    }
    if (!document.contains(pointer)) {
      std::cout << (length ? "0" : "null") << '\n';
      continue;
    }
    const nlohmann::json& value = document.at(pointer);
    if (length) {
      std::cout << (value.is_structured() ? value.size() : 0) << '\n';
    } else if (value.is_string()) {
      std::cout << value.get<std::string>() << '\n';
    } else {
      std::cout << value.dump() << '\n';
    }
  }
  return 0;
}
