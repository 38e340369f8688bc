// Lock-free per-thread chunk lists; see thread_buffers.h for the protocol.
#include "thread_buffers.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "thread_ids.h"

namespace steplint::collector {
namespace {

struct RecordHeader {
  int64_t start_ns;
  int64_t end_ns;
  uint64_t external_id;
  int64_t seq_nr;
  int64_t fwd_thread;
  uint32_t size;  // whole record, padded to 8 bytes
  uint32_t name_len;
  uint32_t args_len;
  uint8_t kind;
  uint8_t flags;
  uint16_t reserved;
};
static_assert(sizeof(RecordHeader) % 8 == 0, "records stay 8-byte aligned");

struct Chunk {
  std::atomic<size_t> committed{0};   // bytes published to the consumer
  std::atomic<Chunk*> next{nullptr};  // non-null = sealed (no more writes here)
  size_t capacity = 0;
  size_t charged = 0;  // bytes charged to the budget
  char* data() { return reinterpret_cast<char*>(this + 1); }
};
static_assert(sizeof(Chunk) % 8 == 0, "chunk data stays 8-byte aligned");

size_t recordSize(const HostEvent& e) {
  size_t n = sizeof(RecordHeader) + e.name.size() + e.args_json.size();
  return (n + 7) & ~size_t{7};
}

}  // namespace

class ThreadBuffer {
 public:
  ThreadInfo info;
  std::atomic<bool> retired{false};
  std::atomic<uint64_t> dropped{0};

  // ---- producer (owning thread) only
  bool append(const HostEvent& e, ThreadBuffers& owner) noexcept {
    const size_t need = recordSize(e);
    Chunk* c = tail_;
    size_t pos = c != nullptr ? c->committed.load(std::memory_order_relaxed) : 0;
    if (c == nullptr || pos + need > c->capacity) {
      Chunk* fresh = allocChunk(std::max(ThreadBuffers::kChunkBytes, need), owner);
      if (fresh == nullptr) {
        dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
      }
      // Sealing: the old chunk's last commit happened before this release store.
      if (c != nullptr)
        c->next.store(fresh, std::memory_order_release);
      else
        first_.store(fresh, std::memory_order_release);
      tail_ = c = fresh;
      pos = 0;
    }
    char* p = c->data() + pos;
    RecordHeader h{e.start_ns,
                   e.end_ns,
                   e.external_id,
                   e.seq_nr,
                   e.fwd_thread,
                   static_cast<uint32_t>(need),
                   static_cast<uint32_t>(e.name.size()),
                   static_cast<uint32_t>(e.args_json.size()),
                   static_cast<uint8_t>(e.kind),
                   e.flags,
                   0};
    std::memcpy(p, &h, sizeof(h));
    if (!e.name.empty()) std::memcpy(p + sizeof(h), e.name.data(), e.name.size());
    if (!e.args_json.empty())
      std::memcpy(p + sizeof(h) + e.name.size(), e.args_json.data(), e.args_json.size());
    c->committed.store(pos + need, std::memory_order_release);
    return true;
  }

  // ---- consumer only. Returns true when the buffer is retired and empty (caller frees it).
  bool drain(const ThreadBuffers::Visitor& visit, ThreadBuffers& owner) {
    const bool was_retired = retired.load(std::memory_order_acquire);
    if (head_ == nullptr) head_ = first_.load(std::memory_order_acquire);
    while (head_ != nullptr) {
      Chunk* next = head_->next.load(std::memory_order_acquire);
      const size_t end = head_->committed.load(std::memory_order_acquire);
      for (; read_ < end;) {
        const char* p = head_->data() + read_;
        RecordHeader h;
        std::memcpy(&h, p, sizeof(h));
        if (visit) visit(toEvent(h, p), info);
        read_ += h.size;
      }
      if (next == nullptr) break;
      // A fork at any point leaves every chunk not yet freed reachable from this object
      // (freeing_ dangles once freed), so leak checkers in the child count none of them.
      freeing_ = head_;
      head_ = next;
      read_ = 0;
      freeChunk(freeing_, owner);
    }
    if (!was_retired) return false;
    freeing_ = head_;
    head_ = nullptr;
    if (freeing_ != nullptr) freeChunk(freeing_, owner);
    return true;
  }

 private:
  static HostEvent toEvent(const RecordHeader& h, const char* p) {
    HostEvent e;
    e.name = std::string_view(p + sizeof(h), h.name_len);
    e.args_json = std::string_view(p + sizeof(h) + h.name_len, h.args_len);
    e.start_ns = h.start_ns;
    e.end_ns = h.end_ns;
    e.external_id = h.external_id;
    e.seq_nr = h.seq_nr;
    e.fwd_thread = h.fwd_thread;
    e.kind = static_cast<HostKind>(h.kind);
    e.flags = h.flags;
    return e;
  }

  static Chunk* allocChunk(size_t capacity, ThreadBuffers& owner) noexcept {
    const size_t bytes = sizeof(Chunk) + capacity;
    if (!owner.reserve(bytes)) return nullptr;
    void* mem = std::malloc(bytes);
    if (mem == nullptr) {
      owner.release(bytes);
      return nullptr;
    }
    Chunk* c = new (mem) Chunk();
    c->capacity = capacity;
    c->charged = bytes;
    return c;
  }

  static void freeChunk(Chunk* c, ThreadBuffers& owner) noexcept {
    owner.release(c->charged);
    c->~Chunk();
    std::free(c);
  }

  Chunk* tail_ = nullptr;               // producer
  std::atomic<Chunk*> first_{nullptr};  // the first chunk, published once
  Chunk* head_ = nullptr;               // consumer
  Chunk* freeing_ = nullptr;            // consumer: the chunk being freed
  size_t read_ = 0;                     // consumer: offset in head_
};

namespace {

// Trivially destructible, so it stays readable during and after thread_local destruction.
struct TlsState {
  ThreadBuffer* buffer = nullptr;
  bool dead = false;
};
thread_local TlsState tls_state;

// Its destructor runs at thread exit and hands the buffer to the consumer for freeing.
struct TlsRetirer {
  bool armed = false;
  ~TlsRetirer() {
    if (tls_state.buffer != nullptr)
      tls_state.buffer->retired.store(true, std::memory_order_release);
    tls_state.buffer = nullptr;
    tls_state.dead = true;
  }
};
thread_local TlsRetirer tls_retirer;

std::string currentThreadName() {
  char name[64] = {};
  if (pthread_getname_np(pthread_self(), name, sizeof(name)) != 0) return {};
  return name;
}

}  // namespace

std::atomic<ThreadBuffers*>& ThreadBuffers::slot() {
  static std::atomic<ThreadBuffers*> current{new ThreadBuffers()};  // leaked on purpose (header)
  return current;
}

ThreadBuffers& ThreadBuffers::instance() { return *slot().load(std::memory_order_acquire); }

void ThreadBuffers::resetInForkedChild() {
  auto* fresh = new ThreadBuffers();
  fresh->parent_copy_ = slot().load(std::memory_order_acquire);
  fresh->parent_thread_buffer_ = tls_state.buffer;
  tls_state = TlsState{};  // this thread's buffer is in the parent's registry
  slot().store(fresh, std::memory_order_release);
}

void ThreadBuffers::setBudget(uint64_t max_bytes) noexcept {
  budget_bytes_.store(max_bytes, std::memory_order_relaxed);
}

bool ThreadBuffers::reserve(size_t bytes) noexcept {
  const uint64_t budget = budget_bytes_.load(std::memory_order_relaxed);
  uint64_t used = used_bytes_.load(std::memory_order_relaxed);
  do {
    if (used + bytes > budget) return false;
  } while (!used_bytes_.compare_exchange_weak(used, used + bytes, std::memory_order_relaxed));
  return true;
}

void ThreadBuffers::release(size_t bytes) noexcept {
  used_bytes_.fetch_sub(bytes, std::memory_order_relaxed);
}

ThreadBuffer* ThreadBuffers::registerThread() noexcept {
  try {
    auto* buffer = new ThreadBuffer();
    buffer->info.tid = currentThreadId();
    rememberCurrentThreadIds();  // its CUDA launches are written on this tid's row (thread_ids.h)
    buffer->info.name = currentThreadName();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      buffers_.push_back(buffer);
    }
    tls_retirer.armed = true;  // first odr-use registers its destructor for this thread
    tls_state.buffer = buffer;
    return buffer;
  } catch (...) {
    return nullptr;
  }
}

bool ThreadBuffers::append(const HostEvent& event) noexcept {
  ThreadBuffer* buffer = tls_state.buffer;
  if (buffer == nullptr) {
    if (tls_state.dead || (buffer = registerThread()) == nullptr) {
      retired_dropped_.fetch_add(1, std::memory_order_relaxed);
      return false;
    }
  }
  return buffer->append(event, *this);
}

void ThreadBuffers::drain(const Visitor& visit) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    snapshot_ = buffers_;
  }
  finished_.clear();
  for (ThreadBuffer* buffer : snapshot_) {
    if (buffer->drain(visit, *this)) finished_.push_back(buffer);
  }
  if (finished_.empty()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  for (ThreadBuffer* buffer : finished_) {
    buffers_.erase(std::remove(buffers_.begin(), buffers_.end(), buffer), buffers_.end());
    retired_dropped_.fetch_add(buffer->dropped.load(std::memory_order_relaxed),
                               std::memory_order_relaxed);
    delete buffer;
  }
}

void ThreadBuffers::discardAll() { drain(Visitor{}); }

uint64_t ThreadBuffers::takeDropped() noexcept {
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t total = retired_dropped_.exchange(0, std::memory_order_relaxed);
  for (ThreadBuffer* buffer : buffers_)
    total += buffer->dropped.exchange(0, std::memory_order_relaxed);
  return total;
}

}  // namespace steplint::collector
