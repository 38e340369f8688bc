#include "track_event_store.h"

namespace steplint::trace {

void TrackEventStore::append(const Event& e) {
  if (blocks_.size() <= e.track) blocks_.resize(size_t{e.track} + 1);
  auto& blocks = blocks_[e.track];
  if (blocks.empty() || blocks.back().size() == kBlockEvents) {
    blocks.emplace_back();
    if (blocks.size() > 1) blocks.back().reserve(kBlockEvents);  // a big track: whole blocks
  }
  blocks.back().push_back(e);
  ++size_;
}

void TrackEventStore::moveInto(std::vector<Event>& out, std::vector<Track>& tracks) {
  std::vector<Event>().swap(out);
  out.reserve(size_);
  for (size_t t = 0; t < tracks.size(); ++t) {
    tracks[t].first_event = static_cast<uint32_t>(out.size());
    if (t < blocks_.size()) {
      for (std::vector<Event>& block : blocks_[t]) {
        out.insert(out.end(), block.begin(), block.end());
        std::vector<Event>().swap(block);  // its pages back to the kernel, for `out` to reuse
      }
    }
    tracks[t].event_count = static_cast<uint32_t>(out.size()) - tracks[t].first_event;
  }
  blocks_.clear();
  size_ = 0;
}

}  // namespace steplint::trace
