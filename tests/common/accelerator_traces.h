// Hand-built Kineto traces from non-CUDA accelerators, with the category and API names each
// back-end really writes (docs/reference/trace-format.md §6, docs/analyses.md "Accelerators"): the
// same training loop of 4 steps x 4 matmuls, each launched by one runtime call and run as one
// device op of 1.7 ms. Shared by the importer, summary, rule and CLI tests.
#pragma once

#include <string>

namespace steplint::test {

struct AcceleratorTraceNames {
  const char* runtime_category;   // "mtia_runtime", "cuda_runtime", "xpu_runtime"
  const char* launch;             // the launch call's name
  const char* kernel_category;    // "mtia_ccp_events", "kernel"
  const char* kernel;             // the device op's name
  const char* copy_category;      // "mtia_ccp_events", "gpu_memcpy"
  const char* copy;               // one host-to-device copy per step
  const char* copy_launch;        // the copy's runtime call
  const char* device_properties;  // the deviceProperties array ("[]" when the back-end writes none)
};

/// 4 ProfilerStep#N of 9 ms; in each, 4 aten::mm of 1.5 ms, each launching (1 ms call) a 1.7 ms
/// device op, then an aten::copy_ whose call launches a 0.2 ms host-to-device copy. The device
/// (pid 0, stream 1) is busy 6.8 + 0.2 ms of each 9 ms step.
inline std::string acceleratorTrace(const AcceleratorTraceNames& n) {
  std::string ev;
  auto add = [&](const std::string& e) { ev += (ev.empty() ? "" : ",\n") + e; };
  auto x = [](const std::string& cat, const std::string& name, int pid, int tid, long ts, long dur,
              const std::string& args) {
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" +
           std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
           std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}}";
  };
  auto ids = [](long ext, long corr) {
    return R"("External id":)" + std::to_string(ext) +
           (corr < 0 ? "" : R"(,"correlation":)" + std::to_string(corr));
  };
  long ext = 1, corr = 1;
  for (int step = 0; step < 4; ++step) {
    const long t0 = 1000 + step * 10000;
    add(x("user_annotation", "ProfilerStep#" + std::to_string(step), 100, 100, t0, 9000,
          ids(ext++, -1)));
    for (int k = 0; k < 4; ++k) {
      const long ts = t0 + 100 + k * 1900;
      add(x("cpu_op", "aten::mm", 100, 100, ts, 1500, ids(ext, -1)));
      add(x(n.runtime_category, n.launch, 100, 100, ts + 100, 1000, ids(ext, corr)));
      add(x(n.kernel_category, n.kernel, 0, 1, ts + 1150, 1700,
            ids(ext, corr) + R"(,"device":0,"stream":1)"));
      ++ext, ++corr;
    }
    const long copy_ts = t0 + 8000;
    add(x("cpu_op", "aten::copy_", 100, 100, copy_ts, 400, ids(ext, -1)));
    add(x(n.runtime_category, n.copy_launch, 100, 100, copy_ts + 50, 300, ids(ext, corr)));
    add(x(n.copy_category, n.copy, 0, 1, copy_ts + 700, 200,
          ids(ext, corr) + R"(,"device":0,"stream":1,"bytes":1048576)"));
    ++ext, ++corr;
  }
  return std::string(R"({"schemaVersion":1,"deviceProperties":)") + n.device_properties +
         R"(,"traceEvents":[)" + ev + "]}";
}

/// MTIA: host calls under mtia_runtime, all device work (compute jobs and DMA) under
/// mtia_ccp_events, no deviceProperties.
inline std::string mtiaTrace() {
  return acceleratorTrace({"mtia_runtime", "runFunction - job_prep_and_submit_for_execution",
                           "mtia_ccp_events", "job_exe_mm", "mtia_ccp_events", "dma_h2d_transfer",
                           "mtiaMemcpyAsync", "[]"});
}

/// ROCm: Kineto writes CUDA's categories with HIP's calls; AMD deviceProperties (gfx90a
/// reports computeMajor 9, which must not read as an NVIDIA Hopper); a Tensile GEMM without a
/// matrix-core (MI) tile.
inline std::string rocmTrace() {
  return acceleratorTrace(
      {"cuda_runtime", "hipLaunchKernel", "kernel", "Cijk_Ailk_Bljk_SB_MT64x64x8_SE_K1",
       "gpu_memcpy", "Memcpy HtoD (Host -> Device)", "hipMemcpyWithStream",
       R"([{"id":0,"name":"AMD Instinct MI250X","totalGlobalMem":68702699520,"computeMajor":9,"computeMinor":0,)"
       R"("warpSize":64,"numSms":104}])"});
}

/// Intel XPU: xpu_runtime calls (Level Zero / UR names), CUDA's device categories, PTI's copy
/// names.
inline std::string xpuTrace() {
  return acceleratorTrace(
      {"xpu_runtime", "urEnqueueKernelLaunch", "kernel", "gemm_kernel", "gpu_memcpy",
       "Memcpy H2D (HOST -> DEVICE)", "urEnqueueUSMMemcpy",
       R"([{"id":0,"name":"Intel(R) Data Center GPU Max 1550","totalGlobalMem":68702699520}])"});
}

}  // namespace steplint::test
