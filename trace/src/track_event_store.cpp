#include "track_event_store.h"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <optional>

#include "page_faulter.h"

namespace steplint::trace {

TrackEventStore::Block::Block(size_t events) : capacity_(events) {
  void* p = ::mmap(nullptr, capacity_ * sizeof(Event), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();  // as std::vector would on no memory
  data_ = static_cast<Event*>(p);               // raw pages: push() constructs each event in place
}

TrackEventStore::Block::~Block() {
  if (data_ != nullptr) ::munmap(data_, capacity_ * sizeof(Event));
}

TrackEventStore::Block::Block(Block&& other) noexcept
    : data_(other.data_), capacity_(other.capacity_), size_(other.size_) {
  other.data_ = nullptr;
  other.size_ = 0;
}

// MADV_DONTNEED, not munmap: both give the pages back, but munmap takes the address space's
// lock for writing and so waits for the PageFaulter's populate calls (and they for it): with
// munmap the copy spent half its time blocked.
void TrackEventStore::Block::discardPages() {
  if (data_ != nullptr) ::madvise(data_, capacity_ * sizeof(Event), MADV_DONTNEED);
  size_ = 0;
}

void TrackEventStore::append(const Event& e) {
  if (tracks_.size() <= e.track) tracks_.resize(size_t{e.track} + 1);
  TrackEvents& track = tracks_[e.track];
  if (track.first.size() < kFirstEvents) {
    track.first.push_back(e);
  } else {
    if (track.more.empty() || track.more.back().full()) {
      const size_t last = track.more.empty() ? kFirstEvents : track.more.back().capacity();
      track.more.emplace_back(std::min(2 * last, Block::kMaxEvents));
    }
    track.more.back().push(e);
  }
  ++size_;
}

void TrackEventStore::moveInto(std::vector<Event>& out, std::vector<Track>& tracks, int threads) {
  std::vector<Event>().swap(out);
  out.reserve(size_);
  std::optional<PageFaulter> faulter;
  if (threads > 1 && size_ * sizeof(Event) >= PageFaulter::kWorthIt)
    faulter.emplace(out.data(), size_ * sizeof(Event));
  const auto copied = [&] {
    if (faulter) faulter->copiedUpTo(out.size() * sizeof(Event));
  };
  for (size_t t = 0; t < tracks.size(); ++t) {
    tracks[t].first_event = static_cast<uint32_t>(out.size());
    if (t < tracks_.size()) {
      TrackEvents& track = tracks_[t];
      out.insert(out.end(), track.first.begin(), track.first.end());
      std::vector<Event>().swap(track.first);
      copied();
      for (Block& block : track.more) {
        out.insert(out.end(), block.begin(), block.end());
        block.discardPages();  // its pages back to the kernel for `out`
        copied();
      }
    }
    tracks[t].event_count = static_cast<uint32_t>(out.size()) - tracks[t].first_event;
  }
  faulter.reset();  // joined before the blocks are unmapped (munmap would wait for its calls)
  tracks_.clear();
  size_ = 0;
}

}  // namespace steplint::trace
