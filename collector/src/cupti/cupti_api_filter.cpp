#include "cupti/cupti_api_filter.h"

#include "cupti/cupti_errors.h"
#include "cupti/cupti_records.h"

namespace steplint::collector {

namespace {

// Ids past the compiled-in table size that a newer libcupti may know; unknown ones are skipped.
constexpr CUpti_CallbackId kIdsBeyondHeader = 256;

}  // namespace

ApiNameOf cuptiApiNames() {
  return [](CUpti_CallbackDomain domain, CUpti_CallbackId cbid) -> const char* {
    const char* name = nullptr;
    return cuptiGetCallbackName(domain, cbid, &name) == CUPTI_SUCCESS ? name : nullptr;
  };
}

ApiSelection selectApis(const ApiNameOf& name_of) {
  ApiSelection s;
  const CUpti_CallbackId driver_end = CUPTI_DRIVER_TRACE_CBID_SIZE + kIdsBeyondHeader;
  for (CUpti_CallbackId id = 1; id < driver_end; ++id) {
    const char* name = name_of(CUPTI_CB_DOMAIN_DRIVER_API, id);
    if (name != nullptr && !startsFlow(stripVersionSuffix(name))) s.driver_off.push_back(id);
  }
  for (CUpti_CallbackId id = 1; id < CUPTI_RUNTIME_TRACE_CBID_SIZE; ++id) {
    if (isBlocklistedRuntimeCbid(id)) s.runtime_off.push_back(id);
  }
  return s;
}

void disableUnneededApis(const ApiSelection& selection) noexcept {
  for (CUpti_CallbackId id : selection.driver_off) {
    if (SL_CUPTI_CALL(cuptiActivityEnableDriverApi(id, 0)) != CUPTI_SUCCESS) break;
  }
  for (CUpti_CallbackId id : selection.runtime_off) {
    if (SL_CUPTI_CALL(cuptiActivityEnableRuntimeApi(id, 0)) != CUPTI_SUCCESS) break;
  }
}

}  // namespace steplint::collector
