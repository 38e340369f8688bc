// The streaming Chrome-trace / Kineto JSON importer.
//
//   ByteSource (file | gzip, prefetched) -> top-level walker (keys before/after traceEvents)
//   -> ArraySplitter (cuts traceEvents into elements, in chunks)
//   -> KinetoEventParser on worker threads (one EventBatch per batch of elements)
//   -> merge in input order into TraceBuilder -> finalize()
//
// Memory: only the chunks whose batches are still being parsed are held (a bounded number),
// plus the model; the text of the whole file never is.
#pragma once

#include "byte_source.h"
#include "steplint/trace/importer.h"

namespace steplint::trace {

/// True if `head` (the first bytes, decompressed) looks like a JSON trace.
bool sniffChromeJson(std::string_view head);

/// Imports from `source` into `model`. `head` is the first bytes already read from it.
ImportStatus importChromeJson(ByteSource& source, std::string head, TraceModel& model,
                              const ImportOptions& options);

}  // namespace steplint::trace
