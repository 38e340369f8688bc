// One piece of work at a time on a worker thread, for the loaders (trace, job, comparison):
// starting a new one cancels and joins the running one, and destruction does the same, so a
// worker never outlives the object its signals are emitted from.
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace steplint::gui {

class BackgroundTask {
 public:
  BackgroundTask() = default;
  ~BackgroundTask();
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;

  /// Runs `work(cancel)` on a new thread after cancelling and joining the running one. `work`
  /// polls `cancel` and reports through queued signals of its owner.
  void start(std::function<void(const std::atomic<bool>& cancel)> work);
  void cancel() { cancel_.store(true); }
  bool cancelled() const { return cancel_.load(); }
  bool busy() const { return busy_.load(); }

 private:
  void join();

  std::thread worker_;
  std::atomic<bool> cancel_{false};
  std::atomic<bool> busy_{false};
};

}  // namespace steplint::gui
