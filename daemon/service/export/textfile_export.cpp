#include "daemon/service/export/textfile_export.hpp"

#include "daemon/codec/atomic_file.hpp"

namespace nb::service {

void TextfileExport::write(const std::filesystem::path& path, std::string_view text) {
  if (path.empty()) {
    return;
  }
  failures_.note(codec::write_file_atomically(path, text));
}

}  // namespace nb::service
