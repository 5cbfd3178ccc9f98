#pragma once
// The order a job walks a process's pages on the source in, as an operator asks for it
// ([actuator] page_order, migrate --page-order) and as the report names it.

#include <optional>
#include <string_view>

namespace nb::actuator {

enum class PageOrder {
  automatic,  // hot_first where DAMON's sysfs interface exists, else address
  hot_first,  // DAMON's hottest regions first (walk_order.hpp)
  address,    // VMA by VMA, in address order
};
std::string_view to_string(PageOrder order);
std::optional<PageOrder> parse_page_order(std::string_view name);
// The names an operator writes, in the order the docs explain them.
inline constexpr std::string_view kPageOrderNames[] = {"auto", "hot_first", "address"};

}  // namespace nb::actuator
