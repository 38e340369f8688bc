// Base of the GUI's read-only tables over one whole analysis result (a trace, a job, a
// comparison): one flat table, with raw numbers under Qt::UserRole so a
// QSortFilterProxyModel (sortRole Qt::UserRole) sorts "10.5" after "9.8" and durations as
// numbers, not text. Subclasses hold the result and say which rows it has.
#pragma once

#include <QAbstractTableModel>
#include <QStringList>

namespace steplint::gui {

class ResultTableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  /// Qt::UserRole in every subclass: the cell's raw value (number, or the text itself).
  static constexpr int kSortValueRole = Qt::UserRole;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 protected:
  /// `headers` name the columns; columns from `first_numeric_column` on are right-aligned.
  ResultTableModel(QStringList headers, int first_numeric_column, QObject* parent);

  /// Replaces the result inside one model reset: `assign` stores it, then rebuild() runs.
  template <class Assign>
  void resetResult(Assign&& assign) {
    beginResetModel();
    assign();
    rebuild();
    endResetModel();
  }

  virtual bool hasResult() const = 0;  // rows() and value() are only called when true
  virtual void rebuild() {}            // derive cached rows from the result (inside the reset)
  virtual int rows() const = 0;
  virtual QVariant value(int row, int column) const = 0;
  /// Display text; by default doubles with `decimals(column)` places, others as written.
  virtual QString text(int row, int column) const;
  virtual int decimals(int /*column*/) const { return 2; }
  /// Right-aligned: the columns from `first_numeric_column` on, unless a subclass says otherwise
  /// (a text column after the numbers).
  virtual bool isNumericColumn(int column) const { return column >= first_numeric_column_; }
  /// Extra roles of a subclass (kStepRole ...); Qt::ToolTipRole defaults to the text.
  virtual QVariant extra(int /*row*/, int /*column*/, int /*role*/) const { return {}; }

 private:
  QStringList headers_;
  int first_numeric_column_;
};

}  // namespace steplint::gui
