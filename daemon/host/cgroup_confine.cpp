#include "daemon/host/cgroup_confine.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

namespace nb::host {
namespace {

std::string quoted(std::string_view text) {
  return "'" + std::string(text) + "'";
}

// "." and empty components dropped, so "a/./b/" is "a/b" and "/" or "." is "".
std::filesystem::path tidy(const std::filesystem::path& path) {
  std::filesystem::path result;
  for (const auto& part : path.relative_path()) {
    if (!part.empty() && part != ".") {
      result /= part;
    }
  }
  return result;
}

Error symlink_refused(std::string_view text) {
  return make_error(0, "cgroup path " + quoted(text) +
                           " goes through a symbolic link; only directories beneath the memory "
                           "cgroup root are accepted");
}

// Without openat2 (kernels before 5.6): no component is "..", so a walk that refuses every
// symbolic link it meets cannot leave the root.
Result<int> walk_beneath(int root_fd, const std::filesystem::path& relative,
                         std::string_view text) {
  int fd = ::fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
  if (fd < 0) {
    return make_error(errno, "duplicate the memory cgroup root's descriptor");
  }
  for (const auto& part : relative) {
    struct stat st {};
    int code = ::fstatat(fd, part.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : errno;
    if (code == 0 && S_ISLNK(st.st_mode)) {
      ::close(fd);
      return symlink_refused(text);
    }
    int next =
        code == 0 ? ::openat(fd, part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
    code = next < 0 && code == 0 ? errno : code;
    ::close(fd);
    if (next < 0) {
      return make_error(code, "open cgroup " + quoted(text));
    }
    fd = next;
  }
  return fd;
}

Result<int> open_beneath(int root_fd, const std::filesystem::path& relative, std::string_view text,
                         BeneathOpen how) {
  if (how == BeneathOpen::walk) {
    return walk_beneath(root_fd, relative, text);
  }
  open_how request{};
  request.flags = O_PATH | O_DIRECTORY | O_CLOEXEC;
  request.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS;
  const char* name = relative.empty() ? "." : relative.c_str();
  long fd = ::syscall(SYS_openat2, root_fd, name, &request, sizeof(request));
  if (fd >= 0) {
    return static_cast<int>(fd);
  }
  switch (errno) {
    case ENOSYS:
      return walk_beneath(root_fd, relative, text);
    case ELOOP:
      return symlink_refused(text);
    case EXDEV:
      return make_error(0, "cgroup path " + quoted(text) + " leads out of the memory cgroup root");
    default:
      return make_error(errno, "open cgroup " + quoted(text));
  }
}

}  // namespace

Result<ConfinedCgroup> confine_cgroup(const std::filesystem::path& memory_root,
                                      std::string_view text, BeneathOpen how) {
  std::filesystem::path root = "/" / tidy(memory_root.lexically_normal());
  std::filesystem::path given(text);
  for (const auto& part : given) {
    if (part == "..") {
      return make_error(0, "cgroup path " + quoted(text) + " contains '..'; " +
                               "paths stay beneath the memory cgroup root " + root.string());
    }
  }
  ConfinedCgroup cgroup;
  if (given.is_absolute()) {
    auto beneath = given.lexically_normal().lexically_relative(root);
    if (beneath.empty() || *beneath.begin() == "..") {
      return make_error(
          0, "cgroup path " + quoted(text) + " is outside the memory cgroup root " + root.string());
    }
    cgroup.relative = tidy(beneath);
  } else {
    cgroup.relative = tidy(given);
  }
  cgroup.dir = cgroup.relative.empty() ? root : root / cgroup.relative;
  int root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (root_fd < 0) {
    return make_error(errno, "open the memory cgroup root " + root.string());
  }
  auto opened = open_beneath(root_fd, cgroup.relative, text, how);
  ::close(root_fd);
  if (!opened) {
    if (opened.error().code == ENOENT || opened.error().code == ENOTDIR) {
      return make_error(opened.error().code, "cgroup not found: " + cgroup.dir.string());
    }
    return opened.error();
  }
  ::close(*opened);
  return cgroup;
}

}  // namespace nb::host
