#include "steplint/trace/input_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

namespace steplint::trace {
namespace {

std::string kindName(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string notA(mode_t mode, std::string_view what) {
  return "is " + kindName(mode) + ", not a " + std::string(what);
}

std::string openErrorText(const std::string& path, int error, std::string_view what) {
  if (error == ENOENT) return "no such file";
  struct stat st {};
  // open() refuses a Unix socket with ENXIO; name what it is rather than "No such device".
  if (error == ENXIO && ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) &&
      !S_ISFIFO(st.st_mode))
    return notA(st.st_mode, what);
  return std::string("cannot read (") + std::strerror(error) + ")";
}

// Waits until the pipe has a byte to read or its writer has gone (poll reports POLLHUP, and
// read() will return end of file). A FIFO that no writer ever opened reports neither on
// Linux, so this is where a reader would otherwise hang.
bool waitForFirstData(int fd, std::chrono::milliseconds wait) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int rc = ::poll(&p, 1, static_cast<int>(std::min<int64_t>(left.count(), INT_MAX)));
    if (rc > 0) return true;
    if (rc == 0) return false;
    if (errno != EINTR) return true;  // let the first read() report the problem
  }
}

std::string secondsText(std::chrono::milliseconds wait) {
  if (wait.count() % 1000 == 0) return std::to_string(wait.count() / 1000) + " s";
  return std::to_string(wait.count()) + " ms";
}

}  // namespace

InputFile::~InputFile() {
  if (fd_ >= 0) ::close(fd_);
}

InputFile::InputFile(InputFile&& other) noexcept : fd_(other.fd_), size_(other.size_) {
  other.fd_ = -1;
}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.fd_;
    size_ = other.size_;
    other.fd_ = -1;
  }
  return *this;
}

int InputFile::release() {
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

InputFile InputFile::open(const std::string& path, std::string& error,
                          const InputOpenOptions& options) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer with no limit,
  // and some devices block in open(). O_NOCTTY: a terminal named by mistake must not become
  // our controlling terminal.
  InputFile file;
  file.fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (file.fd_ < 0) {
    error = openErrorText(path, errno, options.what);
    return {};
  }
  struct stat st {};
  if (::fstat(file.fd_, &st) != 0) {
    error = std::string("cannot read (") + std::strerror(errno) + ")";
    return {};
  }
  if (S_ISFIFO(st.st_mode)) {
    if (!waitForFirstData(file.fd_, options.stream_wait)) {
      error = "no data within " + secondsText(options.stream_wait) +
              " from the pipe or FIFO (is anything writing to it?)";
      return {};
    }
  } else if (S_ISREG(st.st_mode)) {
    // /proc and /sys files report size 0 yet have content: 0 means "unknown", read to the end.
    file.size_ = static_cast<uint64_t>(std::max<off_t>(st.st_size, 0));
  } else {
    error = notA(st.st_mode, options.what);
    return {};
  }
  // Back to blocking reads: from here on an empty pipe means "the writer is still working".
  const int flags = ::fcntl(file.fd_, F_GETFL);
  if (flags >= 0) ::fcntl(file.fd_, F_SETFL, flags & ~O_NONBLOCK);
  return file;
}

std::string formatByteLimit(size_t bytes) {
  constexpr size_t kKiB = 1024, kMiB = kKiB * 1024;
  if (bytes >= kMiB && bytes % kMiB == 0) return std::to_string(bytes / kMiB) + " MiB";
  if (bytes >= kKiB && bytes % kKiB == 0) return std::to_string(bytes / kKiB) + " KiB";
  return std::to_string(bytes) + " bytes";
}

bool readInputFile(const std::string& path, size_t max_bytes, std::string& text, std::string& error,
                   const InputOpenOptions& options) {
  text.clear();
  InputFile file = InputFile::open(path, error, options);
  if (!file.isOpen()) return false;
  const std::string too_large = "larger than " + formatByteLimit(max_bytes) + ", too large for a " +
                                std::string(options.what);
  if (file.knownSize() > max_bytes) {
    error = too_large;
    return false;
  }
  // One byte past the limit tells "exactly at the limit" from "over it" on a stream.
  const size_t cap = max_bytes + 1;
  size_t filled = 0;
  text.resize(
      std::min<size_t>(cap, file.knownSize() > 0 ? file.knownSize() + 1 : size_t{64} << 10));
  while (true) {
    if (filled == text.size()) {
      if (text.size() >= cap) break;
      text.resize(std::min(cap, text.size() * 2));
    }
    const ssize_t n = ::read(file.fd(), text.data() + filled, text.size() - filled);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      error = std::string("cannot read (") + std::strerror(errno) + ")";
      text.clear();
      return false;
    }
    filled += static_cast<size_t>(n);
  }
  if (filled > max_bytes) {
    error = too_large;
    text.clear();
    return false;
  }
  text.resize(filled);
  return true;
}

}  // namespace steplint::trace
