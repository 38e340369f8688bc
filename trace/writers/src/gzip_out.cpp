#include "gzip_out.h"

#include <dlfcn.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <vector>

#if __has_include(<isa-l/igzip_lib.h>)
#include <isa-l/igzip_lib.h>
#define STEPLINT_WRITER_ISAL 1
#endif

namespace steplint::trace {

class GzipOut::Impl {
 public:
  virtual ~Impl() = default;
  virtual std::string_view name() const = 0;
  virtual bool write(std::string_view data) = 0;
  virtual bool syncFlush() = 0;
  virtual bool close() = 0;  // idempotent
};

bool writeAll(int fd, const void* bytes, size_t size) {
  const auto* data = static_cast<const unsigned char*>(bytes);
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      if (n == 0) errno = EIO;
      return false;
    }
    data += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

namespace {

class ZlibOut final : public GzipOut::Impl {
 public:
  explicit ZlibOut(gzFile gz) : gz_(gz) {}
  ~ZlibOut() override { close(); }
  std::string_view name() const override { return "zlib"; }
  bool write(std::string_view data) override {
    errno = 0;
    return gzwrite(gz_, data.data(), static_cast<unsigned>(data.size())) > 0;
  }
  bool syncFlush() override {
    errno = 0;
    return gzflush(gz_, Z_SYNC_FLUSH) == Z_OK;
  }
  bool close() override {
    if (gz_ == nullptr) return true;
    errno = 0;
    const bool ok = gzclose(gz_) == Z_OK;
    gz_ = nullptr;
    return ok;
  }

  /// Level 3: most of level 6's ratio on JSON at a fraction of the writer thread's time.
  static std::unique_ptr<Impl> open(int fd) {
    gzFile gz = gzdopen(fd, "wb3");
    if (gz == nullptr) {
      ::close(fd);
      if (errno == 0) errno = ENOMEM;
      return nullptr;
    }
    gzbuffer(gz, 256 * 1024);
    return std::make_unique<ZlibOut>(gz);
  }

 private:
  gzFile gz_;
};

#ifdef STEPLINT_WRITER_ISAL
/// The two igzip entry points, from libisal.so.2 loaded once (nullptr when it is missing).
struct IsalApi {
  void (*init)(isal_zstream*) = nullptr;
  int (*deflate)(isal_zstream*) = nullptr;

  static const IsalApi* get() {
    static const IsalApi* api = []() -> const IsalApi* {
      void* lib = dlopen("libisal.so.2", RTLD_NOW | RTLD_LOCAL);
      if (lib == nullptr) return nullptr;
      auto* a = new IsalApi();  // lives as long as the process, like the library
      a->init = reinterpret_cast<void (*)(isal_zstream*)>(dlsym(lib, "isal_deflate_init"));
      a->deflate = reinterpret_cast<int (*)(isal_zstream*)>(dlsym(lib, "isal_deflate"));
      if (a->init != nullptr && a->deflate != nullptr) return a;
      delete a;
      return nullptr;
    }();
    return api;
  }
};

class IsalOut final : public GzipOut::Impl {
 public:
  IsalOut(const IsalApi& api, int fd)
      : api_(api), fd_(fd), level_buf_(ISAL_DEF_LVL1_DEFAULT), out_(256 * 1024) {
    api_.init(&s_);
    s_.level = 1;
    s_.level_buf = level_buf_.data();
    s_.level_buf_size = static_cast<uint32_t>(level_buf_.size());
    s_.gzip_flag = IGZIP_GZIP;
  }
  ~IsalOut() override { close(); }
  std::string_view name() const override { return "igzip"; }

  bool write(std::string_view data) override {
    // avail_in is 32 bits: feed very large writes in parts.
    constexpr size_t kMaxIn = size_t{1} << 30;
    while (!data.empty()) {
      const size_t n = std::min(data.size(), kMaxIn);
      s_.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(data.data()));
      s_.avail_in = static_cast<uint32_t>(n);
      if (!run(NO_FLUSH, false)) return false;
      data.remove_prefix(n);
    }
    return true;
  }
  bool syncFlush() override { return run(SYNC_FLUSH, false); }
  bool close() override {
    if (fd_ < 0) return true;
    s_.avail_in = 0;
    bool ok = run(NO_FLUSH, true);
    const int saved = errno;
    if (::close(fd_) != 0 && ok)
      ok = false;
    else
      errno = saved;
    fd_ = -1;
    return ok;
  }

 private:
  /// Compresses the pending input and writes what comes out: until the input is taken and the
  /// output buffer was not filled (a flush is then complete), or the trailer is out (`end`).
  bool run(int flush, bool end) {
    if (fd_ < 0) {
      errno = EBADF;
      return false;
    }
    s_.flush = static_cast<uint16_t>(flush);
    s_.end_of_stream = end ? 1 : 0;
    while (true) {
      s_.next_out = out_.data();
      s_.avail_out = static_cast<uint32_t>(out_.size());
      if (api_.deflate(&s_) != COMP_OK) {
        errno = EIO;
        return false;
      }
      const size_t produced = out_.size() - s_.avail_out;
      if (produced > 0 && !writeAll(fd_, out_.data(), produced)) return false;
      const bool drained = s_.avail_in == 0 && s_.avail_out > 0;
      if (drained && (!end || s_.internal_state.state == ZSTATE_END)) return true;
    }
  }

  const IsalApi& api_;
  int fd_;
  isal_zstream s_{};
  std::vector<uint8_t> level_buf_;
  std::vector<uint8_t> out_;
};
#endif

}  // namespace

GzipOut::GzipOut() = default;
GzipOut::~GzipOut() = default;

bool GzipOut::open(int fd, Backend backend) {
  impl_.reset();
#ifdef STEPLINT_WRITER_ISAL
  if (backend == Backend::kAuto) {
    if (const IsalApi* api = IsalApi::get()) {
      impl_ = std::make_unique<IsalOut>(*api, fd);
      return true;
    }
  }
#else
  (void)backend;
#endif
  impl_ = ZlibOut::open(fd);
  return impl_ != nullptr;
}

bool GzipOut::isOpen() const { return impl_ != nullptr; }

std::string_view GzipOut::backendName() const { return impl_ ? impl_->name() : ""; }

bool GzipOut::write(std::string_view data) {
  if (!impl_) {
    errno = EBADF;
    return false;
  }
  return data.empty() || impl_->write(data);
}

bool GzipOut::syncFlush() {
  if (!impl_) {
    errno = EBADF;
    return false;
  }
  return impl_->syncFlush();
}

bool GzipOut::close() {
  if (!impl_) return true;
  const bool ok = impl_->close();
  const int saved = errno;
  impl_.reset();
  errno = saved;
  return ok;
}

}  // namespace steplint::trace
