#include "actuator/page_order.hpp"

namespace nb::actuator {

std::string_view to_string(PageOrder order) {
  switch (order) {
    case PageOrder::automatic:
      return "auto";
    case PageOrder::hot_first:
      return "hot_first";
    case PageOrder::address:
      return "address";
  }
  return "unknown";
}

std::optional<PageOrder> parse_page_order(std::string_view name) {
  for (PageOrder order : {PageOrder::automatic, PageOrder::hot_first, PageOrder::address}) {
    if (to_string(order) == name) {
      return order;
    }
  }
  return std::nullopt;
}

}  // namespace nb::actuator
