#include "steplint/trace/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string_view>

#include "steplint/trace/trace_head.h"

namespace steplint::trace {
namespace {

std::string withErrno(const char* what) {
  return std::string(what) + " (" + std::strerror(errno) + ")";
}

bool writeAll(int fd, std::string_view contents) {
  while (!contents.empty()) {
    const ssize_t n = ::write(fd, contents.data(), contents.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    contents.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

bool isStreamPath(const std::string& path) {
  return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

// Devices, FIFOs and /dev/stdout-style names: no temporary file is possible (or wanted), and
// no O_CREAT, so a typo such as /dev/nul is an error instead of a new file in /dev.
std::string writeThrough(const std::string& path, std::string_view contents, bool truncate) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | (truncate ? O_TRUNC : 0));
  if (fd < 0) return withErrno("cannot open for writing");
  const bool written = writeAll(fd, contents);
  std::string problem = written ? std::string() : withErrno("write failed");
  if (::close(fd) != 0 && problem.empty()) problem = withErrno("write failed");
  return problem;
}

mode_t currentUmask() {
  // There is no read-only query; the CLI writes outputs after its worker threads have ended,
  // so the moment the mask is 0 cannot affect a file created elsewhere.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// The file a regular-file path finally names: writing next to a symlink's target (and renaming
// over it) keeps the link, as writing through it would.
std::string resolvedTarget(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISLNK(st.st_mode)) return path;
  char resolved[PATH_MAX];
  return ::realpath(path.c_str(), resolved) != nullptr ? std::string(resolved) : path;
}

std::string writeReplacing(const std::string& path, std::string_view contents,
                           const struct stat* existing) {
  const std::string target = resolvedTarget(path);
  const size_t slash = target.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : target.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? target : target.substr(slash + 1);
  std::string temp = (dir == "." ? std::string() : dir) + "." + base + ".steplint-XXXXXX";
  const int fd = ::mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) return withErrno("cannot open for writing");
  // mkstemp makes the file 0600; give it the replaced file's mode, or what a plain create
  // would have given, so a report is as readable as before.
  const mode_t mode = existing != nullptr ? (existing->st_mode & 07777) : (0666 & ~currentUmask());
  std::string problem;
  if (::fchmod(fd, mode) != 0 || !writeAll(fd, contents) || ::fsync(fd) != 0)
    problem = withErrno("write failed");
  if (::close(fd) != 0 && problem.empty()) problem = withErrno("write failed");
  if (problem.empty() && ::rename(temp.c_str(), target.c_str()) != 0)
    problem = withErrno("cannot replace the file");
  if (!problem.empty()) ::unlink(temp.c_str());
  return problem;
}

}  // namespace

std::string checkOutputPath(const std::string& path, const std::vector<std::string>& inputs) {
  struct stat out {};
  if (::stat(path.c_str(), &out) != 0) {
    // Not there yet, but an input may be too: `steplint record` checks its report's path
    // against the trace it is about to write.
    std::error_code ec;
    const std::filesystem::path spelled = std::filesystem::absolute(path, ec).lexically_normal();
    for (const std::string& input : inputs)
      if (!ec && std::filesystem::absolute(input, ec).lexically_normal() == spelled)
        return "is the same file as the input " + input + " (refusing to overwrite an input)";
    return {};
  }
  if (S_ISDIR(out.st_mode)) return "is a directory";
  if (!S_ISREG(out.st_mode)) return {};  // /dev/null, a FIFO: writing cannot harm an input
  for (const std::string& input : inputs) {
    struct stat in {};
    if (::stat(input.c_str(), &in) == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
      return "is the same file as the input " + input + " (refusing to overwrite an input)";
  }
  // A trace that is no input of this run (a rank in another folder, a trace named by mistake):
  // replacing it with a report loses a recording that may not be repeatable.
  if (fileLooksLikeTrace(path)) return "is a trace (refusing to replace it)";
  return {};
}

std::string writeOutputFile(const std::string& path, std::string_view contents) {
  struct stat st {};
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) return "is a directory";
  if (isStreamPath(path)) return writeThrough(path, contents, exists && S_ISREG(st.st_mode));
  if (exists && !S_ISREG(st.st_mode)) return writeThrough(path, contents, false);
  return writeReplacing(path, contents, exists ? &st : nullptr);
}

}  // namespace steplint::trace
