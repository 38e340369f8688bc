#include "steplint/gui/result_table_model.h"

#include "steplint/gui/rich_text.h"

namespace steplint::gui {

ResultTableModel::ResultTableModel(QStringList headers, int first_numeric_column, QObject* parent)
    : QAbstractTableModel(parent),
      headers_(std::move(headers)),
      first_numeric_column_(first_numeric_column) {}

int ResultTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !hasResult() ? 0 : rows();
}

int ResultTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QVariant ResultTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid) || !hasResult()) return {};
  switch (role) {
    case Qt::DisplayRole:
      return text(index.row(), index.column());
    case kSortValueRole:
      return value(index.row(), index.column());
    case Qt::TextAlignmentRole:
      return isNumericColumn(index.column())
                 ? QVariant(static_cast<int>(Qt::AlignRight | Qt::AlignVCenter))
                 : QVariant();
    default:
      break;
  }
  QVariant more = extra(index.row(), index.column(), role);
  // Cells hold trace names (kernels with template arguments): tooltips must show them literally.
  if (!more.isValid() && role == Qt::ToolTipRole)
    return tooltipLiteral(text(index.row(), index.column()));
  return more;
}

QString ResultTableModel::text(int row, int column) const {
  const QVariant v = value(row, column);
  if (v.typeId() == QMetaType::Double) return QString::number(v.toDouble(), 'f', decimals(column));
  return v.toString();
}

QVariant ResultTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Horizontal && role == Qt::DisplayRole && section >= 0 &&
      section < headers_.size())
    return headers_[section];
  return QAbstractTableModel::headerData(section, orientation, role);
}

}  // namespace steplint::gui
