// TEMPORARY placeholder while the streaming importer is written (same session).
#include "steplint/trace/importer.h"
namespace steplint::trace {
ImportStatus importTraceFile(const std::string& path, TraceModel&, const ImportOptions&) {
  return {ImportError::kIo, path + ": importer not built yet"};
}
ImportStatus importTraceBytes(std::string_view, TraceModel&, const ImportOptions&, std::string_view name) {
  return {ImportError::kIo, std::string(name) + ": importer not built yet"};
}
}  // namespace steplint::trace
