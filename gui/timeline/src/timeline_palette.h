// Event colours: stable per name (a hash of the name, so the same kernel has the same colour
// in every trace) inside a hue band chosen by kind, so kernels, copies, CPU ops and
// annotations read apart at a glance. Pageable copies are the warning colour (SL201).
#pragma once

#include <QColor>
#include <cstdint>
#include <vector>

#include "steplint/trace/model.h"

namespace steplint::gui {

class TimelinePalette {
 public:
  void reset(const trace::TraceModel* model);
  /// Fill colour of `event` (cached per name).
  QColor eventColor(const trace::Event& event) const;
  /// The same colour washed out, for events that do not match an active search.
  static QColor dimmed(const QColor& c);
  /// Black or white, whichever reads better on `fill`.
  static QColor textOn(const QColor& fill);

  static QColor background() { return QColor(0xfa, 0xfa, 0xfa); }
  static QColor folded() { return QColor(0xa8, 0xa8, 0xa8); }
  static QColor stepColor(int64_t step_number);

 private:
  QColor compute(const trace::Event& event) const;

  const trace::TraceModel* model_ = nullptr;
  mutable std::vector<QRgb> cache_;  // per StringId; 0 = not computed yet
};

}  // namespace steplint::gui
