#include "partial_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace steplint::trace {
namespace {

constexpr int kInUse = -2;  // openRegularForWrite: another process holds the file

/// Opens `path` for writing only when it is (or becomes) a regular file. O_NONBLOCK: opening a
/// FIFO without a reader fails (ENXIO) instead of blocking; O_NOFOLLOW: a link planted at the
/// .partial path is not followed. Truncates after the check, never a device, and never a file
/// another live process is writing: the writer holds an exclusive flock on its .partial until
/// it closes it (processes of one run started with the same path, e.g. mp.spawn workers, would
/// otherwise truncate and interleave one file). Returns kInUse for that case.
int openRegularForWrite(const std::string& path, std::string* error) {
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0 && !S_ISREG(existing.st_mode)) {
    *error = "cannot open " + path + ": it exists and is not a regular file";
    return -1;
  }
  const int fd =
      ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0644);
  if (fd < 0) {
    *error = "cannot open " + path + ": " + std::strerror(errno);
    return -1;
  }
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    *error = "cannot open " + path + ": it exists and is not a regular file";
    return -1;
  }
  if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    ::close(fd);
    *error = "cannot write " + path + ": another process is writing it";
    return kInUse;
  }  // other flock failures (a file system without locks): write unguarded, as before
  fcntl(fd, F_SETFL, 0);  // back to blocking writes (O_NONBLOCK only guarded the open)
  if (ftruncate(fd, 0) != 0) {
    *error = "cannot truncate " + path + ": " + std::strerror(errno);
    ::close(fd);
    return -1;
  }
  return fd;
}

}  // namespace

std::string notRegularFileProblem(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    // A dangling link still names a file that rename() would replace.
    struct stat link {};
    return ::lstat(path.c_str(), &link) == 0 ? path + " is a symbolic link to nothing"
                                             : std::string();
  }
  return S_ISREG(st.st_mode) ? std::string() : path + " exists and is not a regular file";
}

PartialFile::~PartialFile() { close(); }

bool PartialFile::open(const std::string& path, bool gzip, std::string* error) {
  in_use_ = false;
  std::string problem;
  if (isOpen()) {
    problem = "writer already open";
  } else {
    problem = notRegularFileProblem(path);
  }
  if (!problem.empty()) {
    if (error != nullptr) *error = problem;
    return false;
  }
  path_ = path;
  partial_path_ = path + ".partial";
  fd_ = openRegularForWrite(partial_path_, &problem);
  in_use_ = fd_ == kInUse;
  if (in_use_) fd_ = -1;
  if (fd_ >= 0 && gzip) {
    if (!gz_.open(fd_)) problem = "cannot open " + partial_path_ + " for gzip output";
    fd_ = -1;  // owned by gz_ now (or closed)
  }
  if (!isOpen() && error != nullptr) *error = problem;
  write_error_.clear();
  return isOpen();
}

void PartialFile::fail(int error_number) {
  if (write_error_.empty()) write_error_ = std::strerror(error_number != 0 ? error_number : EIO);
}

void PartialFile::write(std::string_view data) {
  if (data.empty() || !write_error_.empty()) return;
  if (gz_.isOpen()) {
    if (!gz_.write(data)) fail(errno);
  } else if (fd_ >= 0) {
    if (!writeAll(fd_, data.data(), data.size())) fail(errno);
  }
}

void PartialFile::syncFlush() {
  if (!gz_.isOpen() || !write_error_.empty()) return;
  if (!gz_.syncFlush()) fail(errno);
}

bool PartialFile::close() {
  bool ok = true;
  errno = 0;
  if (gz_.isOpen()) ok = gz_.close();
  if (fd_ >= 0) ok = ::close(fd_) == 0;
  if (!ok) fail(errno);
  fd_ = -1;
  return ok;
}

void PartialFile::abandon() { close(); }

bool PartialFile::finish(std::string* error) {
  if (!isOpen()) {
    if (error != nullptr) *error = "writer not open";
    return false;
  }
  close();
  std::string problem;
  if (!write_error_.empty()) {
    problem = "write to " + partial_path_ + " failed: " + write_error_;
  } else if (problem = notRegularFileProblem(path_); !problem.empty()) {
    problem = "kept " + partial_path_ + ": " + problem;  // appeared while recording
  } else if (std::rename(partial_path_.c_str(), path_.c_str()) != 0) {
    problem = "cannot rename " + partial_path_ + " to " + path_ + ": " + std::strerror(errno);
  }
  if (!problem.empty() && error != nullptr) *error = problem;
  return problem.empty();
}

}  // namespace steplint::trace
