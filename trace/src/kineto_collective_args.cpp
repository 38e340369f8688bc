// The args c10d writes for each collective (docs/reference/trace-format.md §7.1, §7.4): on the
// `record_param_comms` op and, in torch 2.x, on the NCCL kernel it launches. The job analysis
// matches a collective across ranks by its process group and sequence number when they are
// here (docs/analyses.md §10). Called only for keys the main classifier does not know, so the
// common events pay one switch on the key's length.
#include "kineto_event_parser.h"

#include <cstdint>

namespace steplint::trace {

CollectiveKey classifyCollectiveKey(std::string_view k) {
  switch (k.size()) {
    case 3:
      return k == "Seq" || k == "seq" ? CollectiveKey::kSeq : CollectiveKey::kNone;
    case 5:
      return k == "dtype" ? CollectiveKey::kDtype : CollectiveKey::kNone;
    case 10:
      return k == "Group size" ? CollectiveKey::kGroupSize : CollectiveKey::kNone;
    case 13:
      return k == "In msg nelems" ? CollectiveKey::kInNelems : CollectiveKey::kNone;
    case 14:
      return k == "Out msg nelems" ? CollectiveKey::kOutNelems : CollectiveKey::kNone;
    case 15:
      return k == "Collective name" ? CollectiveKey::kName : CollectiveKey::kNone;
    case 16:
      return k == "Process Group ID" ? CollectiveKey::kGroup
                                     : CollectiveKey::kNone;  // 2024-04 spelling
    case 18:
      return k == "Process Group Name" ? CollectiveKey::kGroup : CollectiveKey::kNone;
    case 19:
      return k == "Process Group Ranks" ? CollectiveKey::kGroupRanks : CollectiveKey::kNone;
    case 25:
      return k == "Process Group Description" ? CollectiveKey::kGroupDesc : CollectiveKey::kNone;
    default:
      return CollectiveKey::kNone;
  }
}

bool readCollectiveArg(CollectiveKey key, simdjson::ondemand::value& v, CollectiveDetail& out,
                       EventBatch& batch, bool& overflow) {
  int64_t n = 0;
  switch (key) {
    case CollectiveKey::kName:
      return readRawJson(v, batch, out.name);
    case CollectiveKey::kGroup:
      return readRawJson(v, batch, out.group);
    case CollectiveKey::kGroupDesc:
      return readRawJson(v, batch, out.group_desc);
    case CollectiveKey::kGroupRanks:
      return readRawJson(v, batch, out.group_ranks);
    case CollectiveKey::kDtype:
      return readRawJson(v, batch, out.dtype);
    case CollectiveKey::kSeq:
      if (readInt(v, n, overflow)) out.seq = n;
      return true;
    case CollectiveKey::kInNelems:
      if (readInt(v, n, overflow)) out.in_nelems = n;
      return true;
    case CollectiveKey::kOutNelems:
      if (readInt(v, n, overflow)) out.out_nelems = n;
      return true;
    case CollectiveKey::kGroupSize:
      if (readInt(v, n, overflow) && n >= 0 && n <= INT32_MAX)
        out.group_size = static_cast<int32_t>(n);
      return true;
    case CollectiveKey::kNone:
      return true;
  }
  return true;
}

}  // namespace steplint::trace
