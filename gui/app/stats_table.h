// A titled, sortable table over one of the overview's models, with an optional name filter
// (QSortFilterProxyModel + QLineEdit) and an honest "no data" line when the model is empty.
#pragma once

#include <QWidget>

class QAbstractItemModel;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace steplint::gui {

class StatsTable final : public QWidget {
  Q_OBJECT

 public:
  /// Sorts by Qt::UserRole (the models' raw values). `filterable` adds the filter line,
  /// matching column 0 (the name) case-insensitively.
  StatsTable(const QString& title, QAbstractItemModel* model, bool filterable,
             QWidget* parent = nullptr);

  /// Shown instead of the table while the model has no rows ("No GPU activity in this trace").
  void setEmptyText(const QString& text);
  /// Sorts by `column` (descending by default: biggest first).
  void sortBy(int column, Qt::SortOrder order = Qt::DescendingOrder);
  /// The column that takes the width left over (the name column; 0 by default); every other
  /// column is as wide as its header and its widest cell, so no header or number is cut.
  void setStretchColumn(int column);
  /// Column sorting (on by default). A sortable header reserves room for the sort arrow in
  /// every section, as wide as the header is tall: off for one-row-per-GPU tables.
  void setSortingEnabled(bool enabled);
  /// Makes the table exactly as tall as its rows, up to `rows` (then it scrolls); 0 = no fit.
  void setMaxVisibleRows(int rows);

  QTableView* view() const { return view_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QLineEdit* filterEdit() const { return filter_; }  // nullptr when not filterable

 signals:
  /// A row was activated (double-click or Enter); `source_row` is the row in the model.
  void rowActivated(int source_row);

 private:
  void updateEmptyState();
  void fitColumns();
  void fitHeight();

  QAbstractItemModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_ = nullptr;
  QLabel* empty_;
  int stretch_column_ = 0;
  int max_visible_rows_ = 0;
};

}  // namespace steplint::gui
