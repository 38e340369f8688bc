#include "parse_pipeline.h"

#include "kineto_event_parser.h"

namespace steplint::trace {

ParsePipeline::ParsePipeline(int threads, size_t refill_jobs, Sink sink)
    : sink_(std::move(sink)), max_in_flight_(static_cast<size_t>(threads) * 3 + 2 + refill_jobs) {
  for (int i = 0; i < threads; ++i) workers_.emplace_back([this] { work(); });
}

ParsePipeline::~ParsePipeline() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  for (auto& t : workers_) t.join();
}

void ParsePipeline::work() {
  KinetoEventParser parser;
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
    if (queue_.empty()) return;
    auto [seq, job] = std::move(queue_.front());
    queue_.pop_front();
    std::unique_ptr<EventBatch> batch;
    if (!free_.empty()) {
      batch = std::move(free_.back());
      free_.pop_back();
    }
    lock.unlock();
    if (!batch) batch = std::make_unique<EventBatch>();
    batch->clear();
    parser.parseBatch(job.chunk->data, job.elements, 0, job.elements.size(), *batch);
    job.chunk.reset();  // release the text before waiting for the lock
    lock.lock();
    done_.emplace(seq, std::move(batch));
    deliverReady(lock);
    cv_.notify_all();
  }
}

void ParsePipeline::deliverReady(std::unique_lock<std::mutex>& lock) {
  // Whoever holds the delivering role merges every ready batch in order, outside the lock.
  if (delivering_) return;
  delivering_ = true;
  for (auto it = done_.find(next_deliver_); it != done_.end(); it = done_.find(next_deliver_)) {
    std::unique_ptr<EventBatch> batch = std::move(it->second);
    done_.erase(it);
    ++next_deliver_;
    lock.unlock();
    sink_(*batch);
    lock.lock();
    free_.push_back(std::move(batch));
  }
  delivering_ = false;
  cv_.notify_all();
}

void ParsePipeline::submit(BatchJob job) {
  if (workers_.empty()) {
    static thread_local KinetoEventParser parser;
    static thread_local EventBatch batch;
    batch.clear();
    parser.parseBatch(job.chunk->data, job.elements, 0, job.elements.size(), batch);
    sink_(batch);
    return;
  }
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return next_submit_ - next_deliver_ < max_in_flight_; });
  queue_.emplace_back(next_submit_++, std::move(job));
  cv_.notify_all();
}

void ParsePipeline::drain() {
  if (workers_.empty()) return;
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return next_deliver_ == next_submit_ && !delivering_; });
}

}  // namespace steplint::trace
