// Parses batches of traceEvents elements on worker threads and hands the results back in
// input order. The number of batches in flight is bounded, so the chunks they pin (and thus
// memory) are bounded too.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "event_batch.h"
#include "json_splitter.h"
#include "mapped_input.h"

namespace steplint::trace {

/// A buffer of input text, shared by the batches cut from it: a copy read into `owned`, or a
/// view of a mapped file whose pages [release_begin, release_end) are dropped when the last
/// batch is done with it (release_end stops where the next view's kept bytes begin).
struct TextChunk {
  const char* data = nullptr;  // owned.get() or a view; padded readable bytes follow `size`
  size_t capacity = 0;
  size_t size = 0;
  std::unique_ptr<char[]> owned;
  std::shared_ptr<const MappedInput> mapping;
  uint64_t release_begin = 0, release_end = 0;

  TextChunk() = default;
  TextChunk(const TextChunk&) = delete;
  TextChunk& operator=(const TextChunk&) = delete;
  ~TextChunk() {
    if (mapping) mapping->release(release_begin, release_end);
  }
};

struct BatchJob {
  std::shared_ptr<const TextChunk> chunk;
  std::vector<ArraySplitter::Element> elements;
};

class ParsePipeline {
 public:
  using Sink = std::function<void(EventBatch&)>;
  /// `threads` == 0 parses on the calling thread. At most three jobs per thread, plus two, plus
  /// `refill_jobs` are in flight: the submitting thread reads and splits the next input between
  /// bursts of submits, and workers whose queue ran dry meanwhile would idle (with only the
  /// first bound, two parser threads on two cores averaged 1.8 busy cores, not 2).
  ParsePipeline(int threads, size_t refill_jobs, Sink sink);
  ~ParsePipeline();
  ParsePipeline(const ParsePipeline&) = delete;
  ParsePipeline& operator=(const ParsePipeline&) = delete;

  /// Queues a job; blocks while too many are in flight. Results reach the sink in
  /// submission order, one at a time, on whichever thread (worker or caller) finds the next
  /// one ready: merging then runs beside splitting instead of after it.
  void submit(BatchJob job);
  /// Waits for every job and delivers the remaining results.
  void drain();

 private:
  void work();
  void deliverReady(std::unique_lock<std::mutex>& lock);

  Sink sink_;
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::pair<uint64_t, BatchJob>> queue_;
  std::map<uint64_t, std::unique_ptr<EventBatch>> done_;
  std::vector<std::unique_ptr<EventBatch>> free_;  // merged batches, recycled
  uint64_t next_submit_ = 0, next_deliver_ = 0;
  size_t max_in_flight_;
  bool stop_ = false;
  bool delivering_ = false;  // one thread merges at a time, in sequence order
};

}  // namespace steplint::trace
