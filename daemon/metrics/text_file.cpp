#include "daemon/metrics/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>

namespace nb::metrics {

Result<std::string> read_text_file(const std::filesystem::path& path) {
  // Non-blocking, and only regular files: a FIFO (or a device) at a configured path would block
  // the host scan for good, or feed it forever.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    return make_error(errno, "open " + path.string());
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    int code = S_ISREG(status.st_mode) ? errno : EINVAL;
    ::close(fd);
    return make_error(code, path.string() + " is not a regular file" +
                                (S_ISFIFO(status.st_mode) ? " (a named pipe)" : ""));
  }
  std::string content;
  std::array<char, 4096> chunk;
  while (true) {
    ssize_t got = ::read(fd, chunk.data(), chunk.size());
    if (got < 0 && errno == EINTR) {
      continue;
    }
    if (got < 0) {
      int code = errno;
      ::close(fd);
      return make_error(code, "read " + path.string());
    }
    if (got == 0) {
      break;
    }
    content.append(chunk.data(), static_cast<std::size_t>(got));
  }
  ::close(fd);
  return content;
}

std::string trim(std::string_view text) {
  constexpr std::string_view kSpace = " \t\r\n";
  auto first = text.find_first_not_of(kSpace);
  if (first == std::string_view::npos) {
    return {};
  }
  auto last = text.find_last_not_of(kSpace);
  return std::string(text.substr(first, last - first + 1));
}

Result<std::string> read_trimmed(const std::filesystem::path& path) {
  auto content = read_text_file(path);
  if (!content) {
    return content.error();
  }
  return trim(*content);
}

Result<std::uint64_t> parse_unsigned(std::string_view text, const std::string& what) {
  int base = 10;
  if (text.starts_with("0x") || text.starts_with("0X")) {
    base = 16;
    text.remove_prefix(2);
  }
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size()) {
    return make_error(0, what + ": not an unsigned integer: \"" + std::string(text) + "\"");
  }
  return value;
}

Result<std::uint64_t> read_unsigned(const std::filesystem::path& path) {
  auto text = read_trimmed(path);
  if (!text) {
    return text.error();
  }
  return parse_unsigned(*text, path.string());
}

}  // namespace nb::metrics
