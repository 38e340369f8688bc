// The two ids of a thread: the OS tid that host events (and trace rows) use, and the id CUPTI
// stamps on runtime and driver records, which is the low 32 bits of pthread_self(), not a tid.
// Kineto keys its thread map the same way (its recordThreadInfo). Without the mapping a
// thread's launches land on a row of their own, apart from the ops that made them, and the
// analyzer's host timeline (attribution, step detection) loses them.
#pragma once

#include <cstdint>

namespace steplint::collector {

/// Remembers the calling thread's pair; called once per thread when it first records. Bounded:
/// past 65,536 threads new ones are not remembered (their launches keep CUPTI's id).
void rememberCurrentThreadIds() noexcept;

/// The OS tid of the thread CUPTI calls `cupti_thread_id`, or `cupti_thread_id` itself when that
/// thread never recorded a host event.
int64_t osThreadIdOf(uint32_t cupti_thread_id) noexcept;

/// In a forked child, on its one thread: a fresh map (the parent's leaked; its mutex may be held
/// by a parent thread that does not exist here).
void resetThreadIdsInForkedChild();

/// The low 32 bits of pthread_self(): what CUPTI writes into CUpti_ActivityAPI::threadId.
uint32_t cuptiThreadIdOfCurrentThread() noexcept;

}  // namespace steplint::collector
