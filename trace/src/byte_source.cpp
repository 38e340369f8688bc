#include "byte_source.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#ifdef STEPLINT_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include <zlib.h>

#include "mapped_input.h"

namespace steplint::trace {
namespace {

// Smaller files are read: a mapping's setup and page faults cost more than copying them.
constexpr uint64_t kMapAtLeast = uint64_t{1} << 20;

class FileSource final : public ByteSource {
 public:
  FileSource(int fd, uint64_t size) : fd_(fd), size_(size) {}
  ~FileSource() override { ::close(fd_); }
  size_t read(char* dst, size_t capacity) override {
    if (mapping_) {  // after views the descriptor's offset lags: go on from the mapping
      const size_t n = mappedLeft(capacity);
      std::memcpy(dst, mapping_->data() + consumed_, n);
      consumed_ += n;
      return n;
    }
    while (true) {
      const ssize_t n = ::read(fd_, dst, capacity);
      if (n >= 0) {
        consumed_ += static_cast<uint64_t>(n);
        return static_cast<size_t>(n);
      }
      if (errno == EINTR) continue;
      error_ = std::string("read failed: ") + std::strerror(errno);
      return 0;
    }
  }
  std::string error() const override {
    if (!error_.empty() || !mapping_ || !mapping_->shrank()) return error_;
    return "the file shrank while it was read (another program truncated or rewrote it)";
  }
  uint64_t inputConsumed() const override { return consumed_; }
  uint64_t inputSize() const override { return size_; }

  // The read() calls before the first view (the sniffed head) leave the descriptor's offset at
  // consumed_, so views and reads agree on what was delivered.
  bool readView(size_t keep, size_t want, MappedView& out) override {
    if (keep > consumed_ || !mapOnce()) return false;
    const size_t fresh = mappedLeft(want);
    out.mapping = mapping_;
    out.offset = consumed_ - keep;
    out.size = keep + fresh;
    consumed_ += fresh;
    return true;
  }

 private:
  // Up to `want` of the mapped bytes not delivered yet.
  size_t mappedLeft(size_t want) const {
    const uint64_t left = mapping_->size() > consumed_ ? mapping_->size() - consumed_ : 0;
    return static_cast<size_t>(std::min<uint64_t>(want, left));
  }
  bool mapOnce() {
    if (!mapping_ && !map_tried_ && size_ >= kMapAtLeast) mapping_ = MappedInput::map(fd_, size_);
    map_tried_ = true;
    return mapping_ != nullptr;
  }

  int fd_;
  uint64_t size_;
  uint64_t consumed_ = 0;
  std::string error_;
  std::shared_ptr<const MappedInput> mapping_;
  bool map_tried_ = false;
};

class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
  size_t read(char* dst, size_t capacity) override {
    const size_t n = std::min(capacity, bytes_.size() - pos_);
    std::memcpy(dst, bytes_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  std::string error() const override { return {}; }
  uint64_t inputConsumed() const override { return pos_; }
  uint64_t inputSize() const override { return bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t pos_ = 0;
};

class PrefixedSource final : public ByteSource {
 public:
  PrefixedSource(std::string prefix, std::unique_ptr<ByteSource> inner)
      : prefix_(std::move(prefix)), inner_(std::move(inner)) {}
  size_t read(char* dst, size_t capacity) override {
    if (pos_ == prefix_.size()) return inner_->read(dst, capacity);
    const size_t n = std::min(capacity, prefix_.size() - pos_);
    std::memcpy(dst, prefix_.data() + pos_, n);
    pos_ += n;
    return n;
  }
  std::string error() const override { return inner_->error(); }
  uint64_t inputConsumed() const override { return inner_->inputConsumed(); }
  uint64_t inputSize() const override { return inner_->inputSize(); }
  bool compressed() const override { return inner_->compressed(); }
  // The prefix was read from inner_'s start, so once it is delivered the two agree on offsets.
  bool readView(size_t keep, size_t want, MappedView& out) override {
    return pos_ == prefix_.size() && inner_->readView(keep, want, out);
  }

 private:
  std::string prefix_;
  size_t pos_ = 0;
  std::unique_ptr<ByteSource> inner_;
};

// Shared input buffering for the inflaters.
class GzipSourceBase : public ByteSource {
 public:
  explicit GzipSourceBase(std::unique_ptr<ByteSource> inner)
      : inner_(std::move(inner)), in_(kInSize) {}
  std::string error() const override { return error_.empty() ? inner_->error() : error_; }
  uint64_t inputConsumed() const override { return inner_->inputConsumed(); }
  uint64_t inputSize() const override { return inner_->inputSize(); }
  bool compressed() const override { return true; }

 protected:
  static constexpr size_t kInSize = size_t{1} << 20;
  // Refills the input buffer when empty; returns false at the end of the compressed data.
  bool refill(const unsigned char*& next, size_t& avail) {
    if (avail > 0) return true;
    const size_t n = inner_->read(reinterpret_cast<char*>(in_.data()), in_.size());
    next = in_.data();
    avail = n;
    return n > 0;
  }
  std::unique_ptr<ByteSource> inner_;
  std::vector<unsigned char> in_;
  std::string error_;
  bool done_ = false;
};

#ifdef STEPLINT_HAVE_ISAL
// igzip's error codes in zlib's words, so both builds name the problem alike.
std::string isalErrorText(int rc) {
  switch (rc) {
    case ISAL_INVALID_WRAPPER:
      return "incorrect gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    case ISAL_INVALID_BLOCK:
      return "invalid block type";
    case ISAL_INVALID_SYMBOL:
      return "invalid code";
    case ISAL_INVALID_LOOKBACK:
      return "invalid distance too far back";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    case ISAL_NEED_DICT:
      return "needs a preset dictionary";
    default:
      return "igzip error " + std::to_string(rc);
  }
}

// ISA-L igzip: about twice zlib's inflate speed, which matters because .json.gz is the
// common case and inflating is half the import time.
class IsalGzipSource final : public GzipSourceBase {
 public:
  explicit IsalGzipSource(std::unique_ptr<ByteSource> inner) : GzipSourceBase(std::move(inner)) {
    isal_inflate_init(&state_);
    state_.crc_flag = ISAL_GZIP;
  }
  size_t read(char* dst, size_t capacity) override {
    auto* out = reinterpret_cast<uint8_t*>(dst);
    state_.next_out = out;
    state_.avail_out = static_cast<uint32_t>(std::min<size_t>(capacity, UINT32_MAX));
    while (state_.avail_out > 0 && !done_) {
      if (state_.block_state == ISAL_BLOCK_FINISH) {
        // One gzip member ended; another may follow (concatenated .gz files).
        if (!refillIfEmpty()) {
          done_ = true;
          break;
        }
        uint8_t* next = state_.next_in;
        const uint32_t avail = state_.avail_in;
        isal_inflate_reset(&state_);
        state_.crc_flag = ISAL_GZIP;
        state_.next_in = next;
        state_.avail_in = avail;
        continue;
      }
      if (!refillIfEmpty()) {
        if (in_member_) error_ = "gzip stream ends early (truncated file)";
        done_ = true;
        break;
      }
      in_member_ = true;
      const int rc = isal_inflate(&state_);
      if (rc != ISAL_DECOMP_OK) {
        error_ = "corrupt gzip data (" + isalErrorText(rc) + ")";
        done_ = true;
        break;
      }
      if (state_.block_state == ISAL_BLOCK_FINISH) in_member_ = false;
    }
    return static_cast<size_t>(state_.next_out - out);
  }

 private:
  bool refillIfEmpty() {
    if (state_.avail_in > 0) return true;
    const unsigned char* next = nullptr;
    size_t avail = 0;
    if (!refill(next, avail)) return false;
    state_.next_in = const_cast<uint8_t*>(next);
    state_.avail_in = static_cast<uint32_t>(avail);
    return true;
  }

  inflate_state state_{};
  bool in_member_ = false;
};
#endif

class ZlibGzipSource final : public GzipSourceBase {
 public:
  explicit ZlibGzipSource(std::unique_ptr<ByteSource> inner) : GzipSourceBase(std::move(inner)) {
    std::memset(&z_, 0, sizeof(z_));
    inflateInit2(&z_, 15 + 32);  // auto-detect gzip/zlib header
  }
  ~ZlibGzipSource() override { inflateEnd(&z_); }
  size_t read(char* dst, size_t capacity) override {
    if (done_) return 0;
    z_.next_out = reinterpret_cast<Bytef*>(dst);
    z_.avail_out = static_cast<uInt>(std::min<size_t>(capacity, UINT32_MAX));
    while (z_.avail_out > 0) {
      const unsigned char* next = z_.next_in;
      size_t avail = z_.avail_in;
      if (!refill(next, avail)) {
        if (in_member_) error_ = "gzip stream ends early (truncated file)";
        done_ = true;
        break;
      }
      z_.next_in = const_cast<Bytef*>(next);
      z_.avail_in = static_cast<uInt>(avail);
      in_member_ = true;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      if (rc == Z_STREAM_END) {
        in_member_ = false;
        inflateReset(&z_);
      } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
        error_ = std::string("corrupt gzip data (") + (z_.msg ? z_.msg : "zlib error") + ")";
        done_ = true;
        break;
      }
    }
    return static_cast<size_t>(reinterpret_cast<char*>(z_.next_out) - dst);
  }

 private:
  z_stream z_;
  bool in_member_ = false;
};

class PrefetchSource final : public ByteSource {
 public:
  PrefetchSource(std::unique_ptr<ByteSource> inner, size_t block_size, size_t depth)
      : inner_(std::move(inner)), block_size_(block_size), depth_(depth) {
    thread_ = std::thread([this] { run(); });
  }
  ~PrefetchSource() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  size_t read(char* dst, size_t capacity) override {
    size_t total = 0;
    while (total < capacity) {
      if (current_pos_ == current_.size()) {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return !queue_.empty() || finished_; });
        if (queue_.empty()) break;
        current_ = std::move(queue_.front());
        queue_.pop_front();
        current_pos_ = 0;
        cv_.notify_all();
      }
      const size_t n = std::min(capacity - total, current_.size() - current_pos_);
      std::memcpy(dst + total, current_.data() + current_pos_, n);
      current_pos_ += n;
      total += n;
    }
    return total;
  }
  std::string error() const override {
    std::lock_guard<std::mutex> lock(mu_);
    return error_;
  }
  uint64_t inputConsumed() const override { return consumed_.load(); }
  uint64_t inputSize() const override { return inner_->inputSize(); }
  bool compressed() const override { return inner_->compressed(); }

 private:
  void run() {
    while (true) {
      std::vector<char> block(block_size_);
      const size_t n = inner_->read(block.data(), block.size());
      block.resize(n);
      consumed_ = inner_->inputConsumed();
      std::unique_lock<std::mutex> lock(mu_);
      if (n == 0) {
        error_ = inner_->error();
        finished_ = true;
        cv_.notify_all();
        return;
      }
      cv_.wait(lock, [this] { return queue_.size() < depth_ || stop_; });
      if (stop_) return;
      queue_.push_back(std::move(block));
      cv_.notify_all();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  size_t block_size_, depth_;
  std::thread thread_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::vector<char>> queue_;
  std::vector<char> current_;
  size_t current_pos_ = 0;
  bool finished_ = false, stop_ = false;
  std::string error_;
  std::atomic<uint64_t> consumed_{0};
};

}  // namespace

size_t readFully(ByteSource& source, char* dst, size_t size) {
  size_t filled = 0;
  while (filled < size) {
    const size_t n = source.read(dst + filled, size - filled);
    if (n == 0) break;
    filled += n;
  }
  return filled;
}

std::unique_ptr<ByteSource> openFileSource(InputFile file) {
  const uint64_t size = file.knownSize();
  const int fd = file.release();
  if (size > 0) ::posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
  return std::make_unique<FileSource>(fd, size);
}

std::unique_ptr<ByteSource> openPrefixedSource(std::string prefix,
                                               std::unique_ptr<ByteSource> inner) {
  return std::make_unique<PrefixedSource>(std::move(prefix), std::move(inner));
}

std::unique_ptr<ByteSource> openMemorySource(std::string_view bytes) {
  return std::make_unique<MemorySource>(bytes);
}

std::unique_ptr<ByteSource> openGzipSource(std::unique_ptr<ByteSource> inner) {
#ifdef STEPLINT_HAVE_ISAL
  return std::make_unique<IsalGzipSource>(std::move(inner));
#else
  return std::make_unique<ZlibGzipSource>(std::move(inner));
#endif
}

std::unique_ptr<ByteSource> openPrefetchSource(std::unique_ptr<ByteSource> inner, size_t block_size,
                                               size_t depth) {
  return std::make_unique<PrefetchSource>(std::move(inner), block_size, depth);
}

}  // namespace steplint::trace
