// Hand-built CUPTI activity buffers: records laid out back to back, each 8-byte aligned and
// sizeof() the CUDA 13.0 struct, exactly as CUPTI fills its buffers (docs/reference/toolchain.md
// §4.3-4.4).
#pragma once

#include <cupti.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

namespace steplint::test {

class ActivityBuffer {
 public:
  explicit ActivityBuffer(size_t capacity = 64 * 1024) : storage_(capacity / 8 + 1) {}

  /// Appends a zeroed record of type T with its kind set; returns it for filling in.
  template <class T>
  T& add(CUpti_ActivityKind kind) {
    used_ = (used_ + 7) / 8 * 8;
    if (used_ + sizeof(T) > storage_.size() * 8) throw std::bad_alloc();
    void* p = data() + used_;
    std::memset(p, 0, sizeof(T));
    T* record = new (p) T;
    std::memset(static_cast<void*>(record), 0, sizeof(T));
    record->kind = kind;
    used_ += sizeof(T);
    return *record;
  }

  uint8_t* data() { return reinterpret_cast<uint8_t*>(storage_.data()); }
  size_t size() const { return used_; }

 private:
  std::vector<uint64_t> storage_;  // uint64_t: 8-byte alignment of the first record
  size_t used_ = 0;
};

inline CUpti_ActivityKernel10& addKernel(ActivityBuffer& b, const char* name, uint32_t corr,
                                         uint64_t start, uint64_t end, uint32_t stream = 7) {
  auto& k = b.add<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  k.name = name;
  k.correlationId = corr;
  k.start = start;
  k.end = end;
  k.deviceId = 0;
  k.contextId = 1;
  k.streamId = stream;
  return k;
}

inline CUpti_ActivityMemcpy6& addMemcpy(ActivityBuffer& b, uint8_t copy, uint8_t src, uint8_t dst,
                                        uint32_t corr, uint64_t start, uint64_t end,
                                        uint64_t bytes) {
  auto& m = b.add<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY);
  m.copyKind = copy;
  m.srcKind = src;
  m.dstKind = dst;
  m.correlationId = corr;
  m.start = start;
  m.end = end;
  m.bytes = bytes;
  m.contextId = 1;
  m.streamId = 7;
  m.copyCount = 1;
  return m;
}

inline CUpti_ActivityAPI& addApi(ActivityBuffer& b, CUpti_ActivityKind kind, uint32_t cbid,
                                 uint32_t corr, uint64_t start, uint64_t end) {
  auto& a = b.add<CUpti_ActivityAPI>(kind);
  a.cbid = cbid;
  a.correlationId = corr;
  a.start = start;
  a.end = end;
  a.processId = 4242;
  a.threadId = 4243;
  return a;
}

inline void addExternal(
    ActivityBuffer& b, uint32_t corr, uint64_t external_id,
    CUpti_ExternalCorrelationKind kind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0) {
  auto& x = b.add<CUpti_ActivityExternalCorrelation>(CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  x.externalKind = kind;
  x.externalId = external_id;
  x.correlationId = corr;
}

/// The records of one small training step: an op (External id 7) that launches a kernel, a
/// pageable and a pinned H2D copy, a D2H copy, a memset, a stream sync; plus overhead.
void fillStepBuffer(ActivityBuffer& b);

}  // namespace steplint::test
