#include "base/result.hpp"

#include <cstring>

namespace nb {

std::string Error::message() const {
  if (code == 0) {
    return context;
  }
  return context + ": " + std::strerror(code);
}

Error make_error(int code, std::string context) {
  return Error{code, std::move(context)};
}

}  // namespace nb
