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
  StatsTable(const QString& title, QAbstractItemModel* model, bool filterable, QWidget* parent = nullptr);

  /// Shown instead of the table while the model has no rows ("No GPU activity in this trace").
  void setEmptyText(const QString& text);
  /// Sorts by `column` (descending by default: biggest first).
  void sortBy(int column, Qt::SortOrder order = Qt::DescendingOrder);

  QTableView* view() const { return view_; }
  QSortFilterProxyModel* proxy() const { return proxy_; }
  QLineEdit* filterEdit() const { return filter_; }  // nullptr when not filterable

 signals:
  /// A row was activated (double-click or Enter); `source_row` is the row in the model.
  void rowActivated(int source_row);

 private:
  void updateEmptyState();

  QAbstractItemModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* view_;
  QLineEdit* filter_ = nullptr;
  QLabel* empty_;
};

}  // namespace steplint::gui
