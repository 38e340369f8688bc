// Importer behaviour on small inline traces: every timestamp style, both category spellings,
// every linking rule, pid/tid forms and the phases Kineto writes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <thread>

#include "test_util.h"

using namespace steplint::trace;
using steplint::test::findEvent;
using steplint::test::importJson;

namespace {

/// Flow events are kept only on request (ImportOptions::keep_flows).
ImportOptions keepingFlows() {
  ImportOptions options;
  options.keep_flows = true;
  return options;
}

/// `count` one-µs cpu_op events on thread `tid`, each after a comma: enough of them (20,000)
/// put what follows in a later parse batch.
std::string fillerEvents(int count, int tid) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += R"(,{"ph": "X", "cat": "cpu_op", "name": "filler", "pid": 1, "tid": )" +
           std::to_string(tid) + R"(, "ts": 1, "dur": 1})";
  return out;
}

}  // namespace

TEST_CASE("legacy 2021 trace: capitalised categories, integer µs, string tids", "[trace][import]") {
  const auto r = importJson(R"J({"schemaVersion": 1,
    "deviceProperties": [{"id": 0, "name": "Tesla V100", "totalGlobalMem": 16945512448, "computeMajor": 7,
                          "computeMinor": 0, "numSms": 80, "maxThreadsPerMultiprocessor": 2048}],
    "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 25738, "tid": "25738",
     "ts": 1623142623460111, "dur": 100, "args": {"External id": 5, "Input dims": [[32, 3, 224, 224], [64]]}},
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 25738, "tid": "25738",
     "ts": 1623142623460120, "dur": 8, "args": {"correlation": 311, "external id": 5}},
    {"ph": "X", "cat": "Kernel", "name": "implicit_convolve_sgemm", "pid": 0, "tid": "stream 7",
     "ts": 1623142623460140, "dur": 300, "args": {"queued": 0, "device": 0, "context": 1, "stream": 7,
     "correlation": 311, "external id": 5, "registers per thread": 128, "shared memory": 4096,
     "blocks per SM": 0.8, "warps per SM": 6.4, "grid": [64, 1, 1], "block": [256, 1, 1],
     "est. achieved occupancy %": 25}},
    {"ph": "s", "id": 311, "pid": 25738, "tid": 25738, "ts": 1623142623460120, "cat": "async", "name": "launch"},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": "stream 7",
     "ts": 1623142623460500, "dur": 1945, "args": {"device": 0, "stream": 7, "correlation": 312, "bytes": 19267584}}
  ]})J",
                            keepingFlows());
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.metadata.format == "kineto-json");
  CHECK(m.metadata.schema_version == 1);
  REQUIRE(m.metadata.devices.size() == 1);
  CHECK(m.metadata.devices[0].compute_major == 7);
  CHECK(m.metadata.devices[0].num_sms == 80);
  CHECK(m.metadata.devices[0].total_global_mem == 16945512448);

  const Event* op = findEvent(m, "aten::conv2d");
  const Event* call = findEvent(m, "cudaLaunchKernel");
  const Event* kernel = findEvent(m, "implicit_convolve_sgemm");
  const Event* copy = findEvent(m, "Memcpy HtoD (Pageable -> Device)");
  REQUIRE(op);
  REQUIRE(call);
  REQUIRE(kernel);
  REQUIRE(copy);
  CHECK(op->kind == EventKind::kCpuOp);
  CHECK(op->start_ns == 1623142623460111000);
  CHECK(op->dur_ns == 100000);
  CHECK(m.tracks[op->track].tid == 25738);  // "25738" read as a number
  CHECK(call->kind == EventKind::kRuntime);
  CHECK(call->external_id == 5);  // lower-case legacy key
  CHECK(call->link == m.indexOf(*op));
  CHECK(kernel->kind == EventKind::kKernel);
  CHECK(kernel->link == m.indexOf(*call));
  CHECK(m.tracks[kernel->track].tid == 7);  // "stream 7"
  CHECK(m.tracks[kernel->track].kind == TrackKind::kGpuStream);
  const GpuDetail* g = m.gpu(*kernel);
  REQUIRE(g);
  CHECK(g->device == 0);
  CHECK(g->stream == 7);
  CHECK(g->blocks_per_sm == Approx(0.8));
  CHECK(g->occupancy_pct == Approx(25));
  CHECK(g->grid[0] == 64);
  CHECK(g->block[0] == 256);
  CHECK(g->registers_per_thread == 128);
  const GpuDetail* c = m.gpu(*copy);
  REQUIRE(c);
  CHECK(c->copy_kind == CopyKind::kHtoD);
  CHECK(c->src_kind == MemoryKind::kPageable);
  CHECK(c->dst_kind == MemoryKind::kDevice);
  CHECK(c->bytes == 19267584);
  CHECK(m.stats.get(Stat::device_op_without_launch) == 1);  // the memcpy's call is absent
  REQUIRE(m.op(*op));
  CHECK(m.str(m.op(*op)->input_dims) == "[[32, 3, 224, 224], [64]]");
  REQUIRE(m.flows.size() == 1);
  CHECK(m.flows[0].id == 311);
}

TEST_CASE("float absolute µs keeps nanosecond digits exactly", "[trace][import]") {
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1712195495519689.123, "dur": 63.813}]})");
  REQUIRE(r.status.ok());
  REQUIRE(r.model.events.size() == 1);
  CHECK(r.model.events[0].start_ns == 1712195495519689123);
  CHECK(r.model.events[0].dur_ns == 63813);
}

TEST_CASE("relative µs with baseTimeNanoseconds after traceEvents", "[trace][import]") {
  const auto r = importJson(R"({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 4458676522690.655, "dur": 1.5}],
    "traceName": "x.pt.trace.json", "displayTimeUnit": "ms", "baseTimeNanoseconds": 1714000000000000000})");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.metadata.has_base_time);
  CHECK(m.metadata.base_time_ns == 1714000000000000000);
  CHECK(m.metadata.trace_name == "x.pt.trace.json");
  CHECK(m.metadata.display_time_unit == "ms");
  CHECK(m.events[0].start_ns == 4458676522690655);  // kept as read; unix = + base
  CHECK(m.events[0].dur_ns == 1500);
}

TEST_CASE("timestamps given as strings and with exponents", "[trace][import]") {
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": "100.5", "dur": "2"},
    {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 1.5e3, "dur": 1E1}]})");
  REQUIRE(r.status.ok());
  CHECK(findEvent(r.model, "a")->start_ns == 100500);
  CHECK(findEvent(r.model, "a")->dur_ns == 2000);
  CHECK(findEvent(r.model, "b")->start_ns == 1500000);
  CHECK(findEvent(r.model, "b")->dur_ns == 10000);
}

TEST_CASE("op args: Input type and Concrete Inputs kept as raw JSON", "[trace][import]") {
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::_fused_adam_", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
     "args": {"External id": 3, "Input type": ["TensorList", "TensorList", "Scalar"],
              "Concrete Inputs": ["", "", "0.001", "0.9", "0.999", "0.01"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 5, "args": {"External id": 4}}]})");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  const OpDetail* fused = m.op(*findEvent(m, "aten::_fused_adam_"));
  REQUIRE(fused);
  CHECK(m.str(fused->input_types) == R"(["TensorList", "TensorList", "Scalar"])");
  CHECK(m.str(fused->concrete_inputs) == R"(["", "", "0.001", "0.9", "0.999", "0.01"])");
  const OpDetail* mm = m.op(*findEvent(m, "aten::mm"));
  CHECK((mm == nullptr || mm->concrete_inputs == 0));  // absent stays 0
}

TEST_CASE("current categories map to kinds, unknown ones are kept as other", "[trace][import]") {
  const auto r = importJson(R"J({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#3", "pid": 0, "tid": 7, "ts": 5, "dur": 90},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 3, "args": {"correlation": 9}},
    {"ph": "X", "cat": "cuda_sync", "name": "Stream Sync", "pid": 0, "tid": 7, "ts": 20, "dur": 3, "args": {"stream": 7, "correlation": 10}},
    {"ph": "X", "cat": "python_function", "name": "train.py(12): step", "pid": 1, "tid": 1, "ts": 1, "dur": 90},
    {"ph": "X", "cat": "mtia_insight", "name": "x", "pid": 1, "tid": 2, "ts": 1, "dur": 1},
    {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 0, "dur": 200}]})J");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.events.size() == 7);
  int found = 0;
  for (const Event& e : m.events) {
    const std::string_view cat = m.str(e.category);
    if (cat == "user_annotation") {
      CHECK(e.kind == EventKind::kUserAnnotation);
      ++found;
    }
    if (cat == "gpu_user_annotation") {
      CHECK(e.kind == EventKind::kGpuUserAnnotation);
      ++found;
    }
    if (cat == "cuda_driver") {
      CHECK(e.kind == EventKind::kDriver);
      ++found;
    }
    if (cat == "cuda_sync") {
      CHECK(e.kind == EventKind::kCudaSync);
      ++found;
    }
    if (cat == "python_function") {
      CHECK(e.kind == EventKind::kPythonFunction);
      ++found;
    }
    // MTIA's device work (mtia_ccp_events) is device ops (accelerator_test.cpp); its insight
    // records are not interpreted.
    if (cat == "mtia_insight") {
      CHECK(e.kind == EventKind::kOther);
      ++found;
    }
    if (cat == "Trace") {
      CHECK(e.kind == EventKind::kSpan);
      CHECK(m.str(m.tracks[e.track].pid_label) == "Spans");
      ++found;
    }
  }
  CHECK(found == 7);
  // Kept, and counted: a category no analysis reads is said in the import report.
  CHECK(m.stats.get(Stat::event_unknown_category) == 1);
}

TEST_CASE("metadata, memory, counter, instant and flow events", "[trace][import]") {
  const auto r = importJson(R"J({"traceEvents": [
    {"name": "process_name", "ph": "M", "ts": 0, "pid": 42, "tid": 0, "args": {"name": "python3.10"}},
    {"name": "thread_name", "ph": "M", "ts": 0, "pid": 42, "tid": 43, "args": {"name": "thread 43 (pt_main)"}},
    {"name": "thread_sort_index", "ph": "M", "ts": 0, "pid": 42, "tid": 43, "args": {"sort_index": 5}},
    {"name": "process_labels", "ph": "M", "pid": 42, "tid": 0, "args": {"labels": "CPU"}},
    {"name": "weird_meta", "ph": "M", "pid": 42, "tid": 0, "args": {}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 42, "tid": 43, "ts": 10, "dur": 1},
    {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 42, "tid": 43, "ts": 10,
     "args": {"Total Reserved": 2097152, "Total Allocated": 512, "Bytes": 512, "Addr": 140000, "Device Id": 0, "Device Type": 1}},
    {"ph": "i", "s": "g", "name": "Iteration Start: PyTorch Profiler", "pid": "Traces", "tid": "Trace PyTorch Profiler", "ts": 5},
    {"ph": "C", "cat": "hardware_counters", "name": "sm_active", "pid": "GPU 0 Counters", "tid": 0, "ts": 11, "args": {"value": 0.5, "other": 2}},
    {"ph": "f", "id": "0x1f", "pid": 0, "tid": 7, "ts": 12, "cat": "ac2g", "name": "ac2g", "bp": "e"}]})J",
                            keepingFlows());
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  const Event* e = findEvent(m, "aten::empty");
  REQUIRE(e);
  const Track& t = m.tracks[e->track];
  CHECK(m.str(t.process_name) == "python3.10");
  CHECK(m.str(t.thread_name) == "thread 43 (pt_main)");
  CHECK(t.sort_index == 5);
  CHECK(m.stats.get(Stat::metadata_unknown) == 1);  // process_labels is known and ignored
  REQUIRE(m.memory_events.size() == 1);
  CHECK(m.memory_events[0].total_allocated == 512);
  CHECK(m.memory_events[0].total_reserved == 2097152);
  CHECK(m.memory_events[0].device_type == 1);
  REQUIRE(m.instants.size() == 1);
  CHECK(m.instants[0].scope == 'g');
  REQUIRE(m.counters.size() == 2);
  CHECK(m.counters[0].value + m.counters[1].value == Approx(2.5));
  REQUIRE(m.flows.size() == 1);
  CHECK(m.flows[0].id == 0x1f);
  CHECK(m.flows[0].binds_enclosing);
}

TEST_CASE("B/E pairs become complete events, also across batches", "[trace][import]") {
  std::string json =
      R"({"traceEvents": [{"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 0})";
  json += fillerEvents(20000, 1);  // the E halves in a later batch
  json +=
      R"(,{"ph": "E", "pid": 1, "tid": 1, "ts": 50},{"ph": "E", "pid": 1, "tid": 1, "ts": 60}]})";
  const auto r = importJson(json);
  REQUIRE(r.status.ok());
  const Event* outer = findEvent(r.model, "outer");
  REQUIRE(outer);
  CHECK(outer->dur_ns == 50000);
  CHECK(r.model.stats.get(Stat::event_begin_end_pair) == 1);
  CHECK(r.model.stats.get(Stat::event_unmatched_begin_end) == 1);
}

TEST_CASE("batches full of distinct long names import every name intact", "[trace][import]") {
  // Each 512 KiB batch interns over 64 KiB of new strings (with_stack call stacks, shapes and
  // kernel names do): the parse workers' string tables were cleared wrongly after such a batch
  // and the next one overran their arena (a crash on a shuffled ResNet-50 trace).
  std::string json = R"({"traceEvents": [)";
  const auto name = [](int i) {
    return std::string(200, static_cast<char>('a' + i % 26)) + std::to_string(i);
  };
  for (int i = 0; i < 12000; ++i) {
    if (i > 0) json += ',';
    json += R"({"ph": "X", "cat": "cpu_op", "name": ")" + name(i) +
            R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(i) + R"(, "dur": 1})";
  }
  json += "]}";
  for (const int threads : {1, 2}) {
    ImportOptions options;
    options.threads = threads;
    const auto r = importJson(json, options);
    REQUIRE(r.status.ok());
    REQUIRE(r.model.events.size() == 12000);
    for (const Event& e : r.model.events)
      REQUIRE(r.model.name(e) == name(static_cast<int>(e.start_ns / 1000)));
  }
}

TEST_CASE("B/E pairs keep the B half's args: shapes, sequence number, collective",
          "[trace][import]") {
  // A trace from another writer with begin/end halves: the op's args on the B, as on an X.
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 20000; ++i)  // earlier batches with details of their own
    json += R"({"ph": "X", "cat": "cpu_op", "name": "before", "pid": 1, "tid": 4, "ts": 0, "dur": 1,
                "args": {"Sequence number": 1}},)";
  json += R"(
    {"ph": "B", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 0,
     "args": {"Input Dims": [[5, 3], [3, 4]], "Sequence number": 42, "External id": 7}},
    {"ph": "B", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 2, "ts": 0,
     "args": {"Collective name": "allreduce", "Process Group Name": "0", "Seq": 3}})";
  json += fillerEvents(20000, 3);  // the E halves in a later batch
  json +=
      R"(,{"ph": "E", "pid": 1, "tid": 1, "ts": 50},{"ph": "E", "pid": 1, "tid": 2, "ts": 60}]})";
  const auto r = importJson(json);
  REQUIRE(r.status.ok());
  const Event* addmm = findEvent(r.model, "aten::addmm");
  REQUIRE(addmm);
  CHECK(addmm->dur_ns == 50000);
  CHECK(addmm->external_id == 7);
  const OpDetail* op = r.model.op(*addmm);
  REQUIRE(op);
  CHECK(r.model.str(op->input_dims) == "[[5, 3], [3, 4]]");
  CHECK(op->sequence_number == 42);
  const Event* comms = findEvent(r.model, "record_param_comms");
  REQUIRE(comms);
  const CollectiveDetail* c = r.model.collective(*comms);
  REQUIRE(c);
  CHECK(r.model.str(c->name) == "allreduce");
  CHECK(c->seq == 3);
  CHECK(r.model.stats.get(Stat::event_begin_end_pair) == 2);
}

TEST_CASE("array form without closing bracket (legacy autograd profiler)", "[trace][import]") {
  const auto r = importJson(
      R"([{"name": "aten::add", "ph": "X", "ts": 10, "dur": 2, "tid": 1, "pid": "CPU Functions", "args": {}},
    {"name": "aten::mul", "ph": "X", "ts": 13, "dur": 2, "tid": 1, "pid": "CPU Functions", "args": {}},)");
  REQUIRE(r.status.ok());
  CHECK(r.model.metadata.format == "chrome-json-array");
  CHECK(r.model.events.size() == 2);
  CHECK(r.model.events[0].kind == EventKind::kCpuOp);
  CHECK(r.model.stats.get(Stat::json_truncated) == 0);
  CHECK(r.model.metadata.legacy_profiler_export);  // C++ RecordProfile's "CPU Functions"
}

TEST_CASE("the legacy profiler's export is marked, and only it", "[trace][import]") {
  // torch 1.13 without Kineto: export_chrome_trace writes no cat, pid "CPU functions".
  CHECK(
      importJson(
          R"([{"name": "aten::add", "ph": "X", "ts": 10, "dur": 2, "tid": 1, "pid": "CPU functions", "args": {}}])")
          .model.metadata.legacy_profiler_export);
  // An array with categories (another writer's), a CPU functions row with one, and Kineto's
  // object form are not.
  CHECK_FALSE(
      importJson(
          R"([{"name": "aten::add", "ph": "X", "cat": "cpu_op", "ts": 10, "dur": 2, "tid": 1, "pid": 1}])")
          .model.metadata.legacy_profiler_export);
  CHECK_FALSE(
      importJson(
          R"([{"name": "aten::add", "ph": "X", "cat": "cpu_op", "ts": 10, "dur": 2, "tid": 1, "pid": "CPU functions"}])")
          .model.metadata.legacy_profiler_export);
  CHECK_FALSE(
      importJson(
          R"({"traceEvents": [{"name": "aten::add", "ph": "X", "ts": 10, "dur": 2, "tid": 1, "pid": "CPU functions"}]})")
          .model.metadata.legacy_profiler_export);
}

TEST_CASE("legacy use_cuda array form: the CUDA functions row is GPU time, not host work",
          "[trace][import]") {
  const auto r = importJson(
      R"([{"name": "aten::conv2d", "ph": "X", "ts": 31.8, "dur": 145, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::conv2d", "ph": "s", "ts": 31.8, "tid": 1, "pid": "CPU functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
    {"name": "aten::conv2d", "ph": "f", "ts": 32.8, "tid": 0, "pid": "CUDA functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
    {"name": "aten::conv2d", "ph": "X", "ts": 32.8, "dur": 170, "tid": 0, "pid": "CUDA functions", "args": {}}])");
  REQUIRE(r.status.ok());
  REQUIRE(r.model.events.size() == 2);
  int cpu = 0, gpu = 0;
  for (const Event& e : r.model.events) {
    cpu += e.kind == EventKind::kCpuOp;
    gpu += e.kind == EventKind::kGpuUserAnnotation;
  }
  CHECK(cpu == 1);
  CHECK(gpu == 1);
  // Both forms link the op to CUDA work whose kernels the export does not write.
  CHECK(r.model.stats.get(Stat::legacy_gpu_work_unwritten) == 1);
}

TEST_CASE("flow ids in quotes: digits read as the number, a long string id read once",
          "[trace][import]") {
  // A string id was unescaped twice into simdjson's string buffer (once as a quoted integer,
  // once as a string), which holds each string once: an id that is most of its document
  // overflowed it (fuzzer; the ASan suite catches a return of the bug).
  const auto alone = importJson(R"({"traceEvents": [{"ph": "s", "id": ")" + std::string(3000, 'a') +
                                    R"(", "pid": 1, "tid": 1, "ts": 2}]})",
                                keepingFlows());
  REQUIRE(alone.status.ok());
  REQUIRE(alone.model.flows.size() == 1);
  CHECK(alone.model.flows[0].id == ~uint64_t{0});  // hexadecimal past 64 bits: saturated
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "s", "id": "42", "pid": 1, "tid": 1, "ts": 1, "cat": "ac2g", "name": "ac2g"},
    {"ph": "s", "id": "1f", "pid": 1, "tid": 1, "ts": 3, "cat": "ac2g", "name": "ac2g"}]})",
                            keepingFlows());
  REQUIRE(r.status.ok());
  REQUIRE(r.model.flows.size() == 2);
  CHECK(r.model.flows[0].id == 42);    // digits: the number
  CHECK(r.model.flows[1].id == 0x1f);  // letters: hexadecimal (Perfetto)
}

TEST_CASE("cpu_to_cuda flow starts are counted as unwritten GPU work, Kineto's flows are not",
          "[trace][import]") {
  // torch 1.9-1.13 without Kineto: a flow start per op that ran CUDA work, nothing else of it.
  const auto legacy = importJson(
      R"([{"name": "aten::mm", "ph": "X", "ts": 10, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::mm", "ph": "s", "ts": 10, "tid": 1, "pid": "CPU functions", "id": 0, "cat": "cpu_to_cuda", "args": {}},
    {"name": "aten::add", "ph": "X", "ts": 20, "dur": 5, "tid": 1, "pid": "CPU functions", "args": {}},
    {"name": "aten::add", "ph": "s", "ts": 20, "tid": 1, "pid": "CPU functions", "id": 1, "cat": "cpu_to_cuda", "args": {}}])");
  REQUIRE(legacy.status.ok());
  CHECK(legacy.model.metadata.legacy_profiler_export);
  CHECK(legacy.model.stats.get(Stat::legacy_gpu_work_unwritten) == 2);
  const auto kineto = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 2},
    {"ph": "s", "id": 7, "pid": 1, "tid": 1, "ts": 10, "cat": "ac2g", "name": "ac2g"},
    {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 12, "cat": "ac2g", "name": "ac2g", "bp": "e"}]})");
  REQUIRE(kineto.status.ok());
  CHECK(kineto.model.stats.get(Stat::legacy_gpu_work_unwritten) == 0);
}

TEST_CASE("pretty-printed Input Dims read as Kineto writes them", "[trace][import]") {
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
     "args": {"Input Dims": [
        [
          32,
          3
        ],
        []
      ], "Input type": [
        "float",
        "c10::Half"
      ], "Concrete Inputs": ["", "a,\n b"]}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 20, "dur": 5,
     "args": {"Input Dims": [[32, 3], []]}}]})");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  const OpDetail* mm = m.op(*findEvent(m, "aten::mm"));
  const OpDetail* add = m.op(*findEvent(m, "aten::add"));
  REQUIRE(mm);
  REQUIRE(add);
  CHECK(m.str(mm->input_dims) == "[[32, 3], []]");
  CHECK(mm->input_dims == add->input_dims);  // the same interned text
  CHECK(m.str(mm->input_types) == R"(["float", "c10::Half"])");
  CHECK(m.str(mm->concrete_inputs) == R"(["", "a,\n b"])");  // strings kept as written
}

TEST_CASE("per-event problems are counted, never fatal", "[trace][import]") {
  const auto r = importJson(R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "neg", "pid": 1, "tid": 1, "ts": 10, "dur": -5},
    {"ph": "X", "cat": "cpu_op", "name": "nodur", "pid": 1, "tid": 1, "ts": 10},
    {"ph": "X", "cat": "cpu_op", "name": "week", "pid": 1, "tid": 1, "ts": 10, "dur": 704800000000},
    {"ph": "X", "cat": "cpu_op", "name": "badts", "pid": 1, "tid": 1, "ts": true, "dur": 1},
    {"ph": "O", "name": "snapshot", "pid": 1, "tid": 1, "ts": 1, "id": 1},
    {"name": "no phase", "pid": 1, "tid": 1, "ts": 1},
    17, "text", null, [1],
    {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 20, "dur": 1}]})");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.events.size() == 2);
  CHECK(findEvent(m, "neg")->dur_ns == 0);
  CHECK(findEvent(m, "ok"));
  CHECK(m.stats.get(Stat::event_negative_duration) == 1);
  CHECK(m.stats.get(Stat::event_missing_field) == 2);
  CHECK(m.stats.get(Stat::event_absurd_duration) == 1);
  CHECK(m.stats.get(Stat::event_bad_number) == 1);
  CHECK(m.stats.get(Stat::event_unknown_phase) == 1);
  CHECK(m.stats.get(Stat::event_not_object) == 4);  // the scalars and the array, each once
}

TEST_CASE("distributedInfo and unknown top-level metadata are kept", "[trace][import]") {
  const auto r = importJson(R"({"schemaVersion": 1,
    "distributedInfo": {"backend": "nccl", "rank": 1, "world_size": 2, "pg_count": 1},
    "with_stack": 1, "cupti_version": 18,
    "traceEvents": []})");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  CHECK(m.metadata.distributed.present);
  CHECK(m.metadata.distributed.rank == 1);
  CHECK(m.metadata.distributed.world_size == 2);
  CHECK(m.metadata.distributed.backend == "nccl");
  REQUIRE(m.metadata.extra.size() == 2);
  CHECK(m.metadata.extra[0].first == "with_stack");
  CHECK(m.metadata.extra[1].second == "18");
  CHECK(m.events.empty());
}

TEST_CASE("collective args on record_param_comms and the NCCL kernel are kept (#14)",
          "[trace][import]") {
  // torch 2.4: the args on the c10d op, copied onto the kernel it launches; "Seq" and the
  // 2024-04 spelling "Process Group ID" on a second call; an op with only "dtype" is no collective.
  const auto r = importJson(R"J({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 10, "dur": 50,
     "args": {"External id": 7, "Collective name": "allreduce", "Process Group Name": "1",
              "Process Group Description": "tp_group", "Process Group Ranks": "[0, 2]", "Group size": 2,
              "dtype": "BFloat16", "In msg nelems": 4096, "Out msg nelems": 4096, "Seq": 41}},
    {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 100, "dur": 20,
     "args": {"External id": 8, "Collective name": "broadcast", "Process Group ID": 0, "seq": "3"}},
    {"ph": "X", "cat": "cpu_op", "name": "aten::to", "pid": 1, "tid": 1, "ts": 200, "dur": 5,
     "args": {"External id": 9, "dtype": "Float"}},
    {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", "pid": 0, "tid": 20,
     "ts": 70, "dur": 300, "args": {"device": 0, "stream": 20, "correlation": 5, "External id": 7,
     "Collective name": "allreduce", "Process Group Name": "1", "In msg nelems": 4096, "Seq": 41}}
  ]})J");
  REQUIRE(r.status.ok());
  const TraceModel& m = r.model;
  REQUIRE(m.collectives.size() == 3);
  const Event* first = nullptr;
  const Event* second = nullptr;
  for (const Event& e : m.events) {
    if (m.name(e) != "record_param_comms") continue;
    (first ? second : first) = &e;
  }
  REQUIRE(first);
  REQUIRE(second);
  const CollectiveDetail* a = m.collective(*first);
  REQUIRE(a);
  CHECK(m.str(a->name) == "allreduce");
  CHECK(m.str(a->group) == "1");
  CHECK(m.str(a->group_desc) == "tp_group");
  CHECK(m.str(a->group_ranks) == "[0, 2]");
  CHECK(m.str(a->dtype) == "BFloat16");
  CHECK(a->group_size == 2);
  CHECK(a->in_nelems == 4096);
  CHECK(a->out_nelems == 4096);
  CHECK(a->seq == 41);
  CHECK_FALSE(a->on_device);
  const CollectiveDetail* b = m.collective(*second);
  REQUIRE(b);
  CHECK(m.str(b->name) == "broadcast");
  CHECK(m.str(b->group) == "0");  // a number, kept as its text
  CHECK(b->seq == 3);             // a numeric string
  CHECK(b->in_nelems == -1);
  CHECK(m.collective(*findEvent(m, "aten::to")) == nullptr);
  const Event* kernel = findEvent(m, "ncclDevKernel_AllReduce_Sum_bf16_RING_LL");
  REQUIRE(kernel);
  const CollectiveDetail* k = m.collective(*kernel);
  REQUIRE(k);
  CHECK(k->on_device);
  CHECK(k->seq == 41);
  CHECK(m.gpu(*kernel)->stream == 20);  // the kernel's own detail is untouched
}

TEST_CASE("gzip input is detected by content", "[trace][import]") {
  // gzip -c of {"traceEvents":[{"ph":"X","name":"a","pid":1,"tid":1,"ts":1,"dur":1}]}
  static const unsigned char kGz[] = {
      0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0xab, 0x56, 0x2a,
      0x29, 0x4a, 0x4c, 0x4e, 0x75, 0x2d, 0x4b, 0xcd, 0x2b, 0x29, 0x56, 0xb2, 0x8a,
      0xae, 0x56, 0x2a, 0xc8, 0x50, 0xb2, 0x52, 0x8a, 0x50, 0xd2, 0x51, 0xca, 0x4b,
      0xcc, 0x4d, 0x05, 0x32, 0x13, 0x81, 0xcc, 0x82, 0xcc, 0x14, 0x25, 0x2b, 0x43,
      0x1d, 0xa5, 0x12, 0x18, 0x5d, 0x0c, 0xa6, 0x52, 0x4a, 0x8b, 0x80, 0x74, 0x6d,
      0x6c, 0x2d, 0x00, 0xc6, 0xf3, 0x4d, 0xa2, 0x46, 0x00, 0x00, 0x00};
  const auto r = importJson(std::string_view(reinterpret_cast<const char*>(kGz), sizeof kGz));
  REQUIRE(r.status.ok());
  REQUIRE(r.model.events.size() == 1);
  CHECK(r.model.events[0].dur_ns == 1000);
}

TEST_CASE("non-trace input gives one clear error", "[trace][import]") {
  CHECK(importJson("").status.error == ImportError::kNotATrace);
  CHECK(importJson("   \n").status.error == ImportError::kNotATrace);
  CHECK(importJson("hello world").status.error == ImportError::kNotATrace);
  CHECK(importJson(R"({"foo": 1, "bar": [1, 2]})").status.error == ImportError::kNotATrace);
  // Arrays of figures are not the array form of a trace; an empty array is an empty trace, and
  // an array with one event keeps it whatever else it holds.
  const auto numbers = importJson("[24, 24, 25]");
  CHECK(numbers.status.error == ImportError::kNotATrace);
  CHECK(numbers.status.message.find("a JSON array whose elements are not event objects") !=
        std::string::npos);
  CHECK(importJson("[[1, 2], [3, 4]]").status.error == ImportError::kNotATrace);
  CHECK(importJson("[]").status.ok());
  // Objects that are no events (an inference server's request log: no "ph") are no trace
  // either; a lone metadata row or flow names a track, so that array is an (empty) trace.
  const auto log = importJson(R"([{"id": 1, "activity": "X"}, {"id": 2, "timestamps": []}])");
  CHECK(log.status.error == ImportError::kNotATrace);
  CHECK(log.status.message.find("a JSON array of objects none of which is a trace event: 2 "
                                "without a usable ph, ts or dur") != std::string::npos);
  // A Triton server's trace: Chrome async events only, which no profiler trace is made of.
  const auto async = importJson(
      R"([{"ph": "b", "name": "req", "id": 1, "pid": 1, "tid": 1, "ts": 1, "cat": "c"},)"
      R"( {"ph": "e", "name": "req", "id": 1, "pid": 1, "tid": 1, "ts": 9, "cat": "c"}])");
  CHECK(async.status.error == ImportError::kNotATrace);
  CHECK(async.status.message.find("none of which is a trace event: 2 with a phase steplint does "
                                  "not read (such as Chrome's async b/e") != std::string::npos);
  CHECK(importJson(R"([{"ph": "M", "name": "process_name", "pid": 1, "args": {"name": "x"}}])")
            .status.ok());
  CHECK(
      importJson(R"([{"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 1, "cat": "c"}])").status.ok());
  const auto mixed =
      importJson(R"([5, {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}])");
  REQUIRE(mixed.status.ok());
  CHECK(mixed.model.events.size() == 1);
  const auto png = importJson("\x89PNG\r\n\x1a\n....");
  CHECK(png.status.error == ImportError::kNotATrace);
  CHECK(png.status.message == "inline.json: not a trace (a PNG image)");
  TraceModel m;
  const auto missing = importTraceFile("/nonexistent/trace.json", m);
  CHECK(missing.error == ImportError::kIo);
  CHECK(missing.message == "/nonexistent/trace.json: no such file");
}

TEST_CASE("importing with one or several threads gives the same model", "[trace][import]") {
  std::string json = R"({"traceEvents": [)";
  for (int i = 0; i < 30000; ++i) {
    if (i) json += ",";
    json += R"({"ph": "X", "cat": "cpu_op", "name": "op)" + std::to_string(i % 97) +
            R"(", "pid": 1, "tid": )" + std::to_string(i % 3) + R"(, "ts": )" +
            std::to_string(i * 10) + R"(, "dur": 5})";
  }
  json += "]}";
  ImportOptions one;
  one.threads = 0;
  ImportOptions two;
  two.threads = 2;
  const auto a = importJson(json, one);
  const auto b = importJson(json, two);
  REQUIRE(a.model.events.size() == 30000);
  REQUIRE(b.model.events.size() == 30000);
  for (size_t i = 0; i < a.model.events.size(); i += 997) {
    CHECK(a.model.events[i].start_ns == b.model.events[i].start_ns);
    CHECK(a.model.name(a.model.events[i]) == b.model.name(b.model.events[i]));
  }
}

TEST_CASE("the default thread count follows the CPU affinity (#18)", "[trace][import]") {
  // hardware_concurrency() counts the machine; under taskset or a cpuset the process may use
  // fewer, and availableCores() is what ImportOptions::threads = 0 uses.
  const unsigned cores = availableCores();
  CHECK(cores >= 1);
  CHECK(cores <= std::max(1u, std::thread::hardware_concurrency()));
}

TEST_CASE("flow events are counted out of the model unless asked for, tracks and names alike",
          "[trace][import]") {
  const std::string json = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
    {"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 7, "pid": 1, "tid": 2, "ts": 11},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 7, "pid": 0, "tid": 9, "ts": 20, "bp": "e"}
  ]})";
  const auto dropped = importJson(json);
  const auto kept = importJson(json, keepingFlows());
  REQUIRE(dropped.status.ok());
  REQUIRE(kept.status.ok());
  CHECK(dropped.model.flows.empty());
  REQUIRE(kept.model.flows.size() == 2);
  CHECK(kept.model.flows[1].binds_enclosing);
  // The flows' rows exist either way, so every track index and count the analyses print agree.
  CHECK(dropped.model.tracks.size() == kept.model.tracks.size());
  CHECK(dropped.model.events.size() == kept.model.events.size());
}
