// Which CUDA API calls CUPTI records. The DRIVER kind records every driver call, and the
// runtime makes several per launch on its own behalf (cuCtxGetCurrent, cuKernelGetAttribute,
// ...): CUPTI writes each of them on the launching thread, and the converter then throws them
// away (cupti_records.cpp). Turning those calls off at the source keeps exactly what the
// converter keeps and spares CUPTI the rest. Done as Kineto does it (CUPTI >= 12.5): enable the
// kind, then cuptiActivityEnableDriverApi / cuptiActivityEnableRuntimeApi(cbid, 0) per call.
#pragma once

#include <cupti.h>

#include <functional>
#include <vector>

namespace steplint::collector {

struct ApiSelection {
  std::vector<CUpti_CallbackId> driver_off;   // driver calls the converter would drop
  std::vector<CUpti_CallbackId> runtime_off;  // runtime calls it drops (the blocklist)
};

/// CUPTI's name of a call or nullptr for an id it does not know; injectable for tests.
using ApiNameOf = std::function<const char*(CUpti_CallbackDomain, CUpti_CallbackId)>;

/// cuptiGetCallbackName: a table inside libcupti, no driver needed.
ApiNameOf cuptiApiNames();

/// Scans the ids this header knows and some beyond (a newer libcupti may know more calls). A
/// driver call is kept when startsFlow() keeps its name, and also when it has no name.
ApiSelection selectApis(const ApiNameOf& name_of);

/// Turns the selected calls off. Needed again after every cuptiActivityEnable(DRIVER / RUNTIME),
/// which resets per-call settings. Best effort: where CUPTI refuses, it records those calls and
/// the converter drops them, as before.
void disableUnneededApis(const ApiSelection& selection) noexcept;

}  // namespace steplint::collector
