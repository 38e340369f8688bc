// Base of the overview page's read-only tables: one flat table built from a whole
// LoadedTrace (ResultTableModel holding the trace).
#pragma once

#include <memory>

#include "steplint/gui/loaded_trace.h"
#include "steplint/gui/result_table_model.h"

namespace steplint::gui {

class TraceTableModel : public ResultTableModel {
  Q_OBJECT

 public:
  /// Takes the whole result (docs/reference/style.md §2.12); nullptr clears the table.
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  const LoadedTrace* trace() const { return trace_.get(); }

 protected:
  using ResultTableModel::ResultTableModel;
  bool hasResult() const override { return trace_ != nullptr; }

  std::shared_ptr<const LoadedTrace> trace_;
};

}  // namespace steplint::gui
