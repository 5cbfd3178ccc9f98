#pragma once
// The provider and eviction-action names config accepts, from the registries that make them.

#include "daemon/config/extension_names.hpp"

namespace nb::service {

const config::ExtensionNames& extension_names();

}  // namespace nb::service
