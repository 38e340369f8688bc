#include "steplint/gui/background_task.h"

namespace steplint::gui {

BackgroundTask::~BackgroundTask() {
  cancel();
  join();
}

void BackgroundTask::join() {
  if (worker_.joinable()) worker_.join();
}

void BackgroundTask::start(std::function<void(const std::atomic<bool>& cancel)> work) {
  cancel();
  join();
  cancel_.store(false);
  busy_.store(true);
  worker_ = std::thread([this, work = std::move(work)] {
    work(cancel_);
    busy_.store(false);
  });
}

}  // namespace steplint::gui
