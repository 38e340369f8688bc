// ThreadBuffers: lock-free per-thread append, drained concurrently by one consumer.
#include <catch2/catch.hpp>

#include <atomic>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "thread_buffers.h"

using steplint::collector::HostEvent;
using steplint::collector::ThreadBuffers;
using steplint::collector::ThreadInfo;

TEST_CASE("thread buffers: 4 producers, concurrent drain, every event once in per-thread order") {
  constexpr int kThreads = 4;
  constexpr int64_t kEvents = 40'000;  // about 50 chunks per thread
  ThreadBuffers& buffers = ThreadBuffers::instance();
  buffers.setBudget(uint64_t{256} << 20);
  buffers.discardAll();
  buffers.takeDropped();
  const uint64_t base = buffers.bytesInUse();  // this thread's own buffer from earlier tests

  std::map<int64_t, std::vector<int64_t>> seen;  // tid -> seq_nr in drain order
  std::map<int64_t, std::string> names;
  std::map<int64_t, size_t> args_ok;
  auto visit = [&](const HostEvent& e, const ThreadInfo& t) {
    seen[t.tid].push_back(e.seq_nr);
    names[t.tid] = t.name;
    if (e.args_json == "\"i\": " + std::to_string(e.seq_nr) && e.end_ns == e.start_ns + 5)
      ++args_ok[t.tid];
  };

  std::atomic<int> finished{0};
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&, t] {
      pthread_setname_np(pthread_self(), ("producer" + std::to_string(t)).c_str());
      for (int64_t i = 0; i < kEvents; ++i) {
        std::string args = "\"i\": " + std::to_string(i);
        HostEvent e;
        e.name =
            (i % 7 == 0) ? std::string_view("a_rather_long_operator_name::with_namespace") : "op";
        e.args_json = args;
        e.start_ns = i;
        e.end_ns = i + 5;
        e.seq_nr = i;
        REQUIRE(buffers.append(e));
      }
      finished.fetch_add(1);
    });
  }
  while (finished.load() < kThreads) buffers.drain(visit);  // races with the producers on purpose
  for (auto& p : producers) p.join();
  buffers.drain(visit);

  REQUIRE(seen.size() == kThreads);
  for (const auto& [tid, seqs] : seen) {
    INFO("tid " << tid);
    REQUIRE(seqs.size() == static_cast<size_t>(kEvents));
    bool in_order = true;
    for (int64_t i = 0; i < kEvents; ++i) in_order = in_order && seqs[static_cast<size_t>(i)] == i;
    CHECK(in_order);
    CHECK(args_ok[tid] == static_cast<size_t>(kEvents));
    CHECK(names[tid].rfind("producer", 0) == 0);
  }
  CHECK(buffers.takeDropped() == 0);
  buffers.drain(visit);  // the exited threads' buffers are freed now
  CHECK(buffers.bytesInUse() == base);
}

TEST_CASE("thread buffers: a full budget drops and counts events, draining frees room") {
  ThreadBuffers& buffers = ThreadBuffers::instance();
  buffers.discardAll();
  buffers.takeDropped();
  const uint64_t base = buffers.bytesInUse();  // the calling thread may keep one chunk
  buffers.setBudget(base + 2 * (ThreadBuffers::kChunkBytes + 64));
  uint64_t appended = 0, accepted = 0;
  std::string big(1000, 'x');
  for (int i = 0; i < 1000; ++i) {
    HostEvent e;
    e.name = big;
    ++appended;
    if (buffers.append(e)) ++accepted;
  }
  uint64_t drained = 0;
  buffers.drain([&](const HostEvent&, const ThreadInfo&) { ++drained; });
  const uint64_t dropped = buffers.takeDropped();
  CHECK(dropped > 0);
  CHECK(accepted < appended);
  CHECK(drained == accepted);
  CHECK(drained + dropped == appended);
  HostEvent again;
  again.name = big;
  CHECK(buffers.append(again));  // drained chunks went back to the budget
  buffers.discardAll();
  buffers.setBudget(uint64_t{256} << 20);
}
