#include "steplint/gui/trace_table_model.h"

namespace steplint::gui {

void TraceTableModel::setTrace(std::shared_ptr<const LoadedTrace> trace) {
  resetResult([&] { trace_ = std::move(trace); });
}

}  // namespace steplint::gui
