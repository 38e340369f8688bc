#include "timeline_palette.h"

namespace steplint::gui {

namespace {

using trace::EventKind;

struct HueBand {
  int hue0;    // degrees
  int spread;  // degrees the name hash may move the hue
  int saturation;
  int value;
};

HueBand bandFor(EventKind kind) {
  switch (kind) {
    case EventKind::kKernel:
      return {190, 80, 150, 215};  // blues and teals
    case EventKind::kMemcpy:
      return {280, 30, 140, 210};  // violet (pinned / device)
    case EventKind::kMemset:
      return {300, 25, 90, 200};
    case EventKind::kCpuOp:
      return {25, 40, 130, 240};  // oranges
    case EventKind::kPythonFunction:
      return {45, 20, 120, 235};
    case EventKind::kUserAnnotation:
    case EventKind::kGpuUserAnnotation:
      return {95, 50, 120, 205};  // greens
    case EventKind::kRuntime:
    case EventKind::kDriver:
      return {170, 20, 70, 190};  // grey-teal
    case EventKind::kCudaSync:
      return {350, 10, 170, 220};  // red: the host waits
    default:
      return {0, 360, 25, 190};  // greys
  }
}

}  // namespace

void TimelinePalette::reset(const trace::TraceModel* model) {
  model_ = model;
  cache_.assign(model != nullptr ? model->strings.size() : 0, 0);
}

QColor TimelinePalette::eventColor(const trace::Event& event) const {
  if (event.name >= cache_.size()) return compute(event);
  QRgb& slot = cache_[event.name];
  if (slot == 0) slot = compute(event).rgb();  // rgb() has alpha 0xff, so never 0
  return QColor::fromRgb(slot);
}

QColor TimelinePalette::compute(const trace::Event& event) const {
  if (model_ == nullptr) return folded();
  if (event.kind == EventKind::kMemcpy) {
    const trace::GpuDetail* d = model_->gpu(event);
    if (d != nullptr && (d->src_kind == trace::MemoryKind::kPageable ||
                         d->dst_kind == trace::MemoryKind::kPageable)) {
      return QColor(0xe0, 0x5a, 0x1e);  // pageable: the one copy colour that should stand out
    }
  }
  const uint64_t h = trace::hashBytes(model_->name(event));
  const HueBand b = bandFor(event.kind);
  const int hue = (b.hue0 + static_cast<int>(h % static_cast<uint64_t>(b.spread))) % 360;
  const int sat = std::min(255, b.saturation + static_cast<int>((h >> 16) % 40));
  const int val = std::min(255, b.value + static_cast<int>((h >> 24) % 30));
  return QColor::fromHsv(hue, sat, val);
}

QColor TimelinePalette::dimmed(const QColor& c) {
  return QColor((c.red() + 3 * 0xee) / 4, (c.green() + 3 * 0xee) / 4, (c.blue() + 3 * 0xee) / 4);
}

QColor TimelinePalette::textOn(const QColor& fill) {
  const int luma = (fill.red() * 299 + fill.green() * 587 + fill.blue() * 114) / 1000;
  return luma > 140 ? QColor(0x20, 0x20, 0x20) : QColor(0xff, 0xff, 0xff);
}

QColor TimelinePalette::stepColor(int64_t step_number) {
  return step_number % 2 == 0 ? QColor(0x6a, 0x8f, 0xc8) : QColor(0x85, 0xa6, 0xd8);
}

}  // namespace steplint::gui
