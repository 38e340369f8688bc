// CUPTI failure policy (docs/reference/style.md §2.9): every CUPTI call goes through SL_CUPTI_CALL,
// which logs a failure once per call site and hands the CUptiResult back; start() failures are
// turned into one line naming the code and the likely cause, and collection continues CPU-only.
#pragma once

#include <cupti.h>

#include <atomic>
#include <cstdint>
#include <string>

namespace steplint::collector {

/// "CUPTI_ERROR_UNKNOWN (999)": the code's name from cuptiGetResultString and its number.
std::string cuptiCodeText(CUptiResult code);

/// Logs "steplint: cupti: <call> failed: <name> (<code>)" to stderr the first time *logged is
/// false. Returns code unchanged. Never throws (safe inside CUPTI callbacks).
CUptiResult checkCupti(CUptiResult code, const char* call, std::atomic<bool>* logged) noexcept;

/// The one-line reason start() gives when CUPTI refuses to trace, e.g.
/// "CUPTI_ERROR_UNKNOWN (999): no usable NVIDIA driver or GPU; recording CPU-side only".
std::string startFailureText(CUptiResult code);

/// True for codes that mean CUPTI cannot trace at all in this process (no driver, another
/// subscriber, no permission), as opposed to one activity kind being unsupported.
bool isFatalStartCode(CUptiResult code);

/// Non-empty when the loaded libcupti is older than the headers this file was built with:
/// "libcupti reports API version 26, steplint was built with 130001 (CUDA 13.0): ...".
/// *fatal is set when the major versions differ (the record layouts differ then).
std::string checkCuptiVersion(uint32_t runtime_version, uint32_t built_version, bool* fatal);

}  // namespace steplint::collector

/// Evaluates a CUPTI call; on failure logs once for this call site. Yields the CUptiResult.
#define SL_CUPTI_CALL(expr)                                                     \
  ([&]() noexcept -> CUptiResult {                                              \
    static std::atomic<bool> sl_cupti_logged_{false};                           \
    return ::steplint::collector::checkCupti((expr), #expr, &sl_cupti_logged_); \
  }())
