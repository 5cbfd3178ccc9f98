#include "daemon/eviction/none_action.hpp"

namespace nb::eviction {
namespace {

class NoneAction : public EvictionAction {
 public:
  Result<EvictionResult> evict(const EvictionRequest&, EvictionResult result) const override {
    result.detail = "reported only ([eviction] action = \"none\")";
    return result;
  }
};

}  // namespace

std::unique_ptr<EvictionAction> make_none_action(const config::EvictionConfig&) {
  return std::make_unique<NoneAction>();
}

}  // namespace nb::eviction
