// Uses the linked API the way the README shows, without LibTorch: a session, steps, DataLoader
// waits and an annotation. argv[1] is the trace to write.
#include <steplint/collector.h>

#include <chrono>
#include <thread>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  steplint::Session session{argv[1]};
  if (!session.owner()) return 3;
  steplint::annotate("consumer_run", "install test");
  for (int64_t n = 0; n < 3; ++n) {
    steplint::StepScope step{n};
    {
      steplint::DataLoaderWait wait;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    steplint::Range work{"work"};
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return 0;
}
