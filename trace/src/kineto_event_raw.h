// One Kineto event's fields while KinetoEventParser reads them (kineto_event_fields.cpp) and
// until it turns them into model records (kineto_event_commit.cpp). Private to the parser.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kineto_event_parser.h"

namespace steplint::trace {

struct KinetoEventParser::Raw {
  char ph = 0;
  StringId name = 0, cat = 0;
  bool has_cat = false;
  RowKey pid, tid;
  int64_t ts = 0, dur = 0;
  bool has_ts = false, has_dur = false, bad_number = false, overflow = false;
  uint64_t id = 0;
  bool has_id = false, binds_enclosing = false;
  char scope = 't';
  int64_t external_id = kNoId, correlation = kNoId;
  GpuDetail gpu;
  OpDetail op;
  bool has_op = false;
  CollectiveDetail collective;  // kept when it has a name ("Collective name")
  int64_t mem_bytes = 0, total_allocated = -1, total_reserved = -1, addr = 0;
  int64_t device_type = 0, device_id = -1;
  StringId meta_text = 0;
  int64_t sort_index = 0;
  bool has_sort_index = false;
  std::vector<std::pair<StringId, double>>* series = nullptr;
};

}  // namespace steplint::trace
