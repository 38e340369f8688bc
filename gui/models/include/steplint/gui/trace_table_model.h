// Base of the overview page's read-only tables: one flat table built from a whole
// LoadedTrace, with raw numbers under Qt::UserRole so a QSortFilterProxyModel (sortRole
// Qt::UserRole) sorts "10.5" after "9.8" and durations as numbers, not text.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>
#include <memory>

#include "steplint/gui/loaded_trace.h"

namespace steplint::gui {

class TraceTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  /// Qt::UserRole in every subclass: the cell's raw value (number, or the text itself).
  static constexpr int kSortValueRole = Qt::UserRole;

  /// Takes the whole result (docs/reference/style.md §2.12); nullptr clears the table.
  void setTrace(std::shared_ptr<const LoadedTrace> trace);
  const LoadedTrace* trace() const { return trace_.get(); }

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 protected:
  /// `headers` name the columns; columns from `first_numeric_column` on are right-aligned.
  TraceTableModel(QStringList headers, int first_numeric_column, QObject* parent);

  virtual void rebuild() {}  // derive cached rows from trace_ (called inside a model reset)
  virtual int rows() const = 0;
  virtual QVariant value(int row, int column) const = 0;
  /// Display text; by default doubles with `decimals(column)` places, others as written.
  virtual QString text(int row, int column) const;
  virtual int decimals(int /*column*/) const { return 2; }
  /// Extra roles of a subclass (kStepRole ...); Qt::ToolTipRole defaults to the text.
  virtual QVariant extra(int /*row*/, int /*column*/, int /*role*/) const { return {}; }

  std::shared_ptr<const LoadedTrace> trace_;

 private:
  QStringList headers_;
  int first_numeric_column_;
};

}  // namespace steplint::gui
