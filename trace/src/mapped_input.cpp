#include "mapped_input.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <mutex>

namespace steplint::trace {
namespace {

// The SIGBUS guard's table of live mappings: fixed and lock-free, because the handler reads it.
struct GuardSlot {
  std::atomic<bool> used{false};
  std::atomic<uintptr_t> begin{0}, end{0};
  std::atomic<bool> shrank{false};
};
constexpr int kSlots = 64;
std::array<GuardSlot, kSlots> g_slots;
struct sigaction g_previous = {};
uintptr_t g_page_mask = 0;

void forwardToPrevious(int sig, siginfo_t* info, void* context) {
  if ((g_previous.sa_flags & SA_SIGINFO) != 0 && g_previous.sa_sigaction != nullptr) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_DFL && g_previous.sa_handler != SIG_IGN) {
    g_previous.sa_handler(sig);
  } else {
    // Ignoring a fault would repeat it forever: fall back to the default action, which the
    // returning fault then triggers, as if no handler had been installed.
    ::signal(sig, SIG_DFL);
  }
}

void onSigbus(int sig, siginfo_t* info, void* context) {
  const auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
  for (GuardSlot& slot : g_slots) {
    if (!slot.used.load(std::memory_order_acquire)) continue;
    const uintptr_t begin = slot.begin.load(std::memory_order_acquire);
    const uintptr_t end = slot.end.load(std::memory_order_acquire);
    if (addr < begin || addr >= end) continue;
    // The file lost this page: zero pages from here to the mapping's end. The faulting read
    // then repeats and sees zeros, which end the JSON as a truncated file's end does.
    const uintptr_t page = addr & g_page_mask;
    void* zeros = ::mmap(reinterpret_cast<void*>(page), end - page, PROT_READ,
                         MAP_FIXED | MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (zeros != MAP_FAILED) {
      slot.shrank.store(true, std::memory_order_release);
      return;
    }
    break;
  }
  forwardToPrevious(sig, info, context);
}

void installGuard() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page_mask = ~(static_cast<uintptr_t>(::sysconf(_SC_PAGESIZE)) - 1);
    struct sigaction action = {};
    action.sa_sigaction = &onSigbus;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

int claimSlot(uintptr_t begin, uintptr_t end) {
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_slots[i].used.compare_exchange_strong(expected, true)) continue;
    g_slots[i].shrank.store(false);
    g_slots[i].begin.store(begin, std::memory_order_release);
    g_slots[i].end.store(end, std::memory_order_release);
    return i;
  }
  return -1;
}

}  // namespace

std::shared_ptr<MappedInput> MappedInput::map(int fd, uint64_t size) {
  if (size == 0 || size > SIZE_MAX / 2) return nullptr;
  installGuard();
  const size_t page = ~g_page_mask + 1;
  const size_t span = (static_cast<size_t>(size) + kPadding + page - 1) & g_page_mask;
  // Reserve the whole span as zero pages first: the padding after the file's last page is then
  // readable, and the file goes on top of it.
  void* reserved =
      ::mmap(nullptr, span, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED) return nullptr;
  char* base = static_cast<char*>(reserved);
  if (::mmap(base, static_cast<size_t>(size), PROT_READ, MAP_FIXED | MAP_PRIVATE, fd, 0) ==
      MAP_FAILED) {
    ::munmap(base, span);
    return nullptr;
  }
  const int slot =
      claimSlot(reinterpret_cast<uintptr_t>(base), reinterpret_cast<uintptr_t>(base) + span);
  if (slot < 0) {
    ::munmap(base, span);
    return nullptr;
  }
  ::madvise(base, static_cast<size_t>(size), MADV_SEQUENTIAL);
  return std::shared_ptr<MappedInput>(new MappedInput(base, size, span, slot));
}

MappedInput::~MappedInput() {
  // Out of the guard's table before the pages go, so a later fault there is not taken for ours.
  g_slots[slot_].begin.store(0, std::memory_order_release);
  g_slots[slot_].end.store(0, std::memory_order_release);
  ::munmap(base_, span_);
  g_slots[slot_].used.store(false, std::memory_order_release);
}

void MappedInput::release(uint64_t begin, uint64_t end) const {
  const auto first = (reinterpret_cast<uintptr_t>(base_) + begin + ~g_page_mask) & g_page_mask;
  const auto last = (reinterpret_cast<uintptr_t>(base_) + std::min(end, size_)) & g_page_mask;
  if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_DONTNEED);
}

bool MappedInput::shrank() const { return g_slots[slot_].shrank.load(std::memory_order_acquire); }

}  // namespace steplint::trace
