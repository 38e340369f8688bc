// The keys KinetoEventParser reads, of the event object and of its args
// (docs/reference/trace-format.md §4, §7, §9). Private to the parser (kineto_event_fields.cpp).
#pragma once

#include <cstdint>
#include <string_view>

namespace steplint::trace {

enum class EventKey : uint8_t {
  kUnknown,
  kPh,
  kName,
  kCat,
  kPid,
  kTid,
  kTs,
  kDur,
  kId,
  kScope,
  kBindPoint,
  kArgs,
  kExternalId,
  kCorrelation,
  kDevice,
  kStream,
  kBytes,
  kBlocksPerSm,
  kWarpsPerSm,
  kOccupancy,
  kGrid,
  kBlock,
  kRegisters,
  kSharedMemory,
  kSequenceNumber,
  kFwdThreadId,
  kInputDims,
  kInputType,
  kConcreteInputs,
  kCallStack,
  kTotalAllocated,
  kTotalReserved,
  kMemoryBytes,
  kAddr,
  kDeviceId,
  kDeviceType,
  kSortIndex,
};
// A key, dispatched on length first: this runs for every field of every event, so a chain of
// ~30 string compares would show up in profiles.
inline EventKey classifyEventKey(std::string_view k) {
  switch (k.size()) {
    case 1:
      return k == "s" ? EventKey::kScope : EventKey::kUnknown;
    case 2:
      return k == "ph"   ? EventKey::kPh
             : k == "ts" ? EventKey::kTs
             : k == "id" ? EventKey::kId
             : k == "bp" ? EventKey::kBindPoint
                         : EventKey::kUnknown;
    case 3:
      return k == "cat"   ? EventKey::kCat
             : k == "pid" ? EventKey::kPid
             : k == "tid" ? EventKey::kTid
             : k == "dur" ? EventKey::kDur
                          : EventKey::kUnknown;
    case 4:
      return k == "name"   ? EventKey::kName
             : k == "args" ? EventKey::kArgs
             : k == "grid" ? EventKey::kGrid
             : k == "Addr" ? EventKey::kAddr
                           : EventKey::kUnknown;
    case 5:
      return k == "bytes"   ? EventKey::kBytes
             : k == "block" ? EventKey::kBlock
             : k == "Bytes" ? EventKey::kMemoryBytes
                            : EventKey::kUnknown;
    case 6:
      return k == "device"   ? EventKey::kDevice
             : k == "stream" ? EventKey::kStream
                             : EventKey::kUnknown;
    case 9:
      return k == "Device Id" ? EventKey::kDeviceId : EventKey::kUnknown;
    case 10:
      if (k == "Input Dims" || k == "Input dims") return EventKey::kInputDims;
      return k == "Input type"   ? EventKey::kInputType
             : k == "Call stack" ? EventKey::kCallStack
             : k == "sort_index" ? EventKey::kSortIndex
                                 : EventKey::kUnknown;
    case 11:
      if (k == "External id" || k == "external id") return EventKey::kExternalId;
      return k == "correlation"   ? EventKey::kCorrelation
             : k == "Device Type" ? EventKey::kDeviceType
                                  : EventKey::kUnknown;
    case 12:
      return k == "warps per SM" ? EventKey::kWarpsPerSm : EventKey::kUnknown;
    case 13:
      return k == "blocks per SM"   ? EventKey::kBlocksPerSm
             : k == "shared memory" ? EventKey::kSharedMemory
             : k == "Fwd thread id" ? EventKey::kFwdThreadId
                                    : EventKey::kUnknown;
    case 14:
      return k == "Total Reserved" ? EventKey::kTotalReserved : EventKey::kUnknown;
    case 15:
      return k == "Sequence number"   ? EventKey::kSequenceNumber
             : k == "Total Allocated" ? EventKey::kTotalAllocated
             : k == "Concrete Inputs" ? EventKey::kConcreteInputs
                                      : EventKey::kUnknown;
    case 20:
      return k == "registers per thread" ? EventKey::kRegisters : EventKey::kUnknown;
    case 25:
      return k == "est. achieved occupancy %" ? EventKey::kOccupancy : EventKey::kUnknown;
    default:
      return EventKey::kUnknown;
  }
}

}  // namespace steplint::trace
