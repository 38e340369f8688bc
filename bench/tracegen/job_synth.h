// Synthesizes a distributed data-parallel job: one trace per rank, all ranks simulated on one
// global timeline so that a collective ends at the same moment on every rank, as it does on
// real hardware. Each rank's file is then written in its own clock (an offset per rank), so
// the analysis cannot lean on the clocks agreeing (docs/analyses.md "Whole job").
//
// A step per rank: DataLoader, a buffer broadcast, 6 forward layers, 6 backward layers, the
// gradient all-reduce, the optimizer, and loss.item(). One rank may be planted as a straggler:
// more backward compute, a slower DataLoader, or a host sync after every layer. Collectives may
// carry c10d's args (process group, sequence number) as torch writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tracegen/kineto_format.h"

namespace steplint::bench {

enum class PlantedStraggler : uint8_t { kNone, kBackward, kDataLoader, kHostSync };
enum class CollectiveStyle : uint8_t { kNccl, kGloo };
/// The c10d args written for each collective: none (torch < 1.13), the process group on
/// record_param_comms only (the NCCL kernel found through its launch), or the group and the
/// sequence number on record_param_comms and the kernel (torch >= 2.3).
enum class CollectiveArgs : uint8_t { kNone, kGroup, kSeq };

struct JobSynthOptions {
  int ranks = 4;
  PlantedStraggler straggler = PlantedStraggler::kNone;
  int straggler_rank = 1;
  CollectiveStyle style = CollectiveStyle::kNccl;
  CollectiveArgs collective_args = CollectiveArgs::kNone;
  bool distributed_info = true;    // false: leave distributedInfo out (ranks from file names)
  double extra_backward_ms = 8.0;  // kBackward: added to the straggler's backward kernels
  double loader_factor = 4.0;      // kDataLoader: the straggler's DataLoader is this much slower
  double sync_host_work_us = 400;  // kHostSync: host work after each sync before the next launch
  uint64_t seed = 1;
};

class JobSynthesizer {
 public:
  explicit JobSynthesizer(const JobSynthOptions& options);
  ~JobSynthesizer();
  JobSynthesizer(const JobSynthesizer&) = delete;
  JobSynthesizer& operator=(const JobSynthesizer&) = delete;

  int ranks() const;
  /// Each rank's header and metadata events, appended to out[rank].
  void begin(std::vector<std::string>& out);
  /// ProfilerStep#`number` on every rank, appended to out[rank].
  void step(int64_t number, std::vector<std::string>& out);
  /// Closes every rank's trace.
  void end(std::vector<std::string>& out);

 private:
  struct Rank;
  JobSynthOptions options_;
  std::vector<Rank> ranks_;
};

const char* plantedStragglerName(PlantedStraggler s);  // "none", "backward", "dataloader", "sync"
bool parsePlantedStraggler(const std::string& text, PlantedStraggler& out);
bool parseCollectiveArgs(const std::string& text, CollectiveArgs& out);  // "none", "group", "seq"

}  // namespace steplint::bench
