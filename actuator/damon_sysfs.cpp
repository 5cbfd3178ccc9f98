#include "actuator/damon_sysfs.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>

#include "base/file_descriptor.hpp"

namespace nb::actuator {
namespace {

// Every DAMON file holds one number or word.
constexpr std::size_t kLongestValue = 4096;

}  // namespace

Result<std::string> LinuxDamonSysfs::read(const std::string& path) {
  std::string full = describe(path);
  FileDescriptor fd(::open(full.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    return make_error(errno, "read " + full);
  }
  std::array<char, kLongestValue> buffer{};
  ssize_t got = ::read(fd.get(), buffer.data(), buffer.size());
  if (got < 0) {
    return make_error(errno, "read " + full);
  }
  return std::string(buffer.data(), static_cast<std::size_t>(got));
}

// A sysfs store sees one write(2) as one value: the whole line goes in a single call.
Status LinuxDamonSysfs::write(const std::string& path, std::string_view value) {
  std::string full = describe(path);
  FileDescriptor fd(::open(full.c_str(), O_WRONLY | O_CLOEXEC));
  if (fd.get() < 0) {
    return make_error(errno, "write " + full);
  }
  std::string line(value);
  line += '\n';
  ssize_t put = ::write(fd.get(), line.data(), line.size());
  if (put < 0) {
    return make_error(errno, "write " + full);
  }
  if (static_cast<std::size_t>(put) != line.size()) {
    return make_error(EIO, "write " + full + ": short write");
  }
  return Ok{};
}

bool LinuxDamonSysfs::exists(const std::string& path) {
  std::error_code error;
  return std::filesystem::exists(root_ / path, error);
}

std::string LinuxDamonSysfs::describe(const std::string& path) const {
  return path.empty() ? root_.string() : (root_ / path).string();
}

Result<std::string> read_word(DamonSysfs& sysfs, const std::string& path) {
  auto text = sysfs.read(path);
  if (!text) {
    return text.error();
  }
  std::string word = std::move(*text);
  while (!word.empty() && (word.back() == '\n' || word.back() == ' ')) {
    word.pop_back();
  }
  return word;
}

Result<std::uint64_t> read_number(DamonSysfs& sysfs, const std::string& path) {
  auto word = read_word(sysfs, path);
  if (!word) {
    return word.error();
  }
  std::uint64_t value = 0;
  const char* end = word->data() + word->size();
  auto [stop, error] = std::from_chars(word->data(), end, value);
  if (error != std::errc() || stop != end || word->empty()) {
    return make_error(EINVAL,
                      "read " + sysfs.describe(path) + ": \"" + *word + "\" is not a number");
  }
  return value;
}

std::filesystem::path damon_admin_root(const std::filesystem::path& sys_root) {
  return sys_root / "kernel/mm/damon/admin";
}

}  // namespace nb::actuator
