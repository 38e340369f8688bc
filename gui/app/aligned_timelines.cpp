#include "aligned_timelines.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "steplint/gui/selection_and_zoom.h"
#include "steplint/gui/timeline_widget.h"

namespace steplint::gui {
namespace {

QLabel* titleLabel(QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setTextFormat(Qt::PlainText);  // file names and rank notes, never markup
  label->setStyleSheet(QStringLiteral("font-weight: bold; padding: 2px 4px;"));
  return label;
}

}  // namespace

AlignedTimelines::AlignedTimelines(QWidget* parent)
    : QWidget(parent),
      upper_selection_(new SelectionAndZoom(this)),
      lower_selection_(new SelectionAndZoom(this)) {
  stack_ = new QStackedWidget(this);
  message_ = new QLabel(this);
  message_->setAlignment(Qt::AlignCenter);
  message_->setWordWrap(true);
  stack_->addWidget(message_);
  stack_->addWidget(buildTimelines());
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(stack_);
  follow(upper_selection_, lower_selection_, true);
  follow(lower_selection_, upper_selection_, false);
  showMessage(QString());
}

QWidget* AlignedTimelines::buildTimelines() {
  auto* page = new QWidget(this);
  auto* bar = new QHBoxLayout;
  step_box_ = new QComboBox(page);
  step_box_->setToolTip(
      tr("Zoom both timelines to this step, each step whole and starting at the same x"));
  connect(step_box_, &QComboBox::activated, this,
          [this](int index) { showStep(step_box_->itemData(index).toLongLong()); });
  bar->addWidget(new QLabel(tr("Step:"), page));
  bar->addWidget(step_box_);
  bar->addWidget(
      new QLabel(tr("Zoom and pan either timeline: the other follows, step N above step N."), page),
      1);
  upper_title_ = titleLabel(page);
  lower_title_ = titleLabel(page);
  upper_ = new TimelineWidget(upper_selection_, page);
  lower_ = new TimelineWidget(lower_selection_, page);
  auto* splitter = new QSplitter(Qt::Vertical, page);
  for (auto [title, timeline] :
       {std::pair{upper_title_, upper_}, std::pair{lower_title_, lower_}}) {
    auto* half = new QWidget(splitter);
    auto* column = new QVBoxLayout(half);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(0);
    column->addWidget(title);
    column->addWidget(timeline, 1);
    splitter->addWidget(half);
  }
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(bar);
  layout->addWidget(splitter, 1);
  return page;
}

void AlignedTimelines::follow(SelectionAndZoom* leader, SelectionAndZoom* follower,
                              bool leader_is_upper) {
  connect(leader, &SelectionAndZoom::visibleRangeChanged, this, [=](TimeRange range) {
    if (following_ || !upper_trace_ || !lower_trace_) return;
    following_ = true;
    follower->setVisibleRange(alignRange(side(leader_is_upper), side(!leader_is_upper), range));
    following_ = false;
  });
}

AlignedSide AlignedTimelines::side(bool upper) const {
  const LoadedTrace& t = upper ? *upper_trace_ : *lower_trace_;
  const auto [start, end] = t.model.timeRange();
  return {&t.summary.steps.steps, {start, end}};
}

void AlignedTimelines::setTraces(std::shared_ptr<const LoadedTrace> upper,
                                 const QString& upper_title,
                                 std::shared_ptr<const LoadedTrace> lower,
                                 const QString& lower_title) {
  if (!upper || !lower) {
    showMessage(tr("Nothing to show"));
    return;
  }
  upper_title_->setText(upper_title);
  lower_title_->setText(lower_title);
  if (upper == upper_trace_ && lower == lower_trace_) return;  // only new titles: keep the layouts
  upper_trace_ = std::move(upper);
  lower_trace_ = std::move(lower);
  upper_->setTrace(upper_trace_);
  lower_->setTrace(lower_trace_);
  fillStepBox();
  stack_->setCurrentIndex(1);
  // The lower one follows: its part aligned with the whole upper trace.
  following_ = true;
  lower_selection_->setVisibleRange(
      alignRange(side(true), side(false), upper_selection_->visibleRange()));
  following_ = false;
}

QString AlignedTimelines::upperTitle() const { return upper_title_->text(); }

QString AlignedTimelines::lowerTitle() const { return lower_title_->text(); }

void AlignedTimelines::fillStepBox() {
  step_box_->clear();
  for (const analyzer::Step& s : upper_trace_->summary.steps.steps)
    step_box_->addItem(QStringLiteral("#%1").arg(s.number),
                       QVariant::fromValue<qlonglong>(s.number));
  step_box_->setEnabled(step_box_->count() > 0);
}

void AlignedTimelines::showMessage(const QString& text) {
  upper_trace_.reset();
  lower_trace_.reset();
  upper_->setTrace(nullptr);
  lower_->setTrace(nullptr);
  message_->setText(text);
  stack_->setCurrentIndex(0);
}

bool AlignedTimelines::showStep(int64_t number) {
  if (!upper_trace_ || !lower_trace_) return false;
  const auto ranges = stepRanges(side(true), side(false), number);
  if (!ranges) return false;
  following_ = true;  // both set here: neither follows the other
  upper_selection_->setVisibleRange(ranges->first, true);
  lower_selection_->setVisibleRange(ranges->second, true);
  following_ = false;
  const int index = step_box_->findData(QVariant::fromValue<qlonglong>(number));
  if (index >= 0) step_box_->setCurrentIndex(index);
  return true;
}

}  // namespace steplint::gui
