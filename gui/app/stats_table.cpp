#include "stats_table.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>

namespace steplint::gui {

StatsTable::StatsTable(const QString& title, QAbstractItemModel* model, bool filterable,
                       QWidget* parent)
    : QWidget(parent),
      model_(model),
      proxy_(new QSortFilterProxyModel(this)),
      view_(new QTableView(this)),
      empty_(new QLabel(tr("No data"), this)) {
  proxy_->setSourceModel(model);
  proxy_->setSortRole(Qt::UserRole);
  proxy_->setFilterKeyColumn(0);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  view_->setModel(proxy_);
  view_->setSortingEnabled(true);
  view_->setSelectionBehavior(QAbstractItemView::SelectRows);
  view_->setAlternatingRowColors(true);
  view_->setTextElideMode(Qt::ElideMiddle);  // kernel names differ at both ends
  view_->verticalHeader()->hide();
  view_->verticalHeader()->setDefaultSectionSize(view_->fontMetrics().height() + 6);
  view_->horizontalHeader()->setStretchLastSection(false);
  view_->horizontalHeader()->setSectionResizeMode(stretch_column_, QHeaderView::Stretch);
  empty_->setAlignment(Qt::AlignCenter);
  empty_->setEnabled(false);  // greyed: a state, not content

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* heading = new QLabel(QStringLiteral("<b>%1</b>").arg(title.toHtmlEscaped()), this);
  layout->addWidget(heading);
  if (filterable) {
    filter_ = new QLineEdit(this);
    filter_->setPlaceholderText(tr("Filter by name…"));
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    layout->addWidget(filter_);
  }
  layout->addWidget(view_, 1);
  layout->addWidget(empty_);
  connect(view_, &QTableView::activated, this, [this](const QModelIndex& index) {
    emit rowActivated(proxy_->mapToSource(index).row());
  });
  connect(model, &QAbstractItemModel::modelReset, this, &StatsTable::updateEmptyState);
  connect(model, &QAbstractItemModel::rowsInserted, this, &StatsTable::updateEmptyState);
  updateEmptyState();
}

void StatsTable::setEmptyText(const QString& text) { empty_->setText(text); }

void StatsTable::sortBy(int column, Qt::SortOrder order) { view_->sortByColumn(column, order); }

void StatsTable::setStretchColumn(int column) {
  view_->horizontalHeader()->setSectionResizeMode(stretch_column_, QHeaderView::Interactive);
  stretch_column_ = column;
  view_->horizontalHeader()->setSectionResizeMode(stretch_column_, QHeaderView::Stretch);
  fitColumns();
}

void StatsTable::setSortingEnabled(bool enabled) {
  view_->setSortingEnabled(enabled);
  fitColumns();
}

void StatsTable::setMaxVisibleRows(int rows) {
  max_visible_rows_ = rows;
  fitHeight();
}

void StatsTable::updateEmptyState() {
  const bool empty = model_->rowCount() == 0;
  view_->setVisible(!empty);
  if (filter_ != nullptr) filter_->setVisible(!empty);
  empty_->setVisible(empty);
  if (!empty) fitColumns();
  fitHeight();
}

// resizeColumnToContents takes the larger of the header's and the cells' size hints.
void StatsTable::fitColumns() {
  if (model_->rowCount() == 0) return;
  for (int c = 0; c < model_->columnCount(); ++c)
    if (c != stretch_column_) view_->resizeColumnToContents(c);
}

void StatsTable::fitHeight() {
  if (max_visible_rows_ <= 0) return;
  const int rows = std::clamp(model_->rowCount(), 1, max_visible_rows_);
  const int height = view_->horizontalHeader()->sizeHint().height() +
                     rows * view_->verticalHeader()->defaultSectionSize() + 2 * view_->frameWidth();
  view_->setFixedHeight(height);
}

}  // namespace steplint::gui
