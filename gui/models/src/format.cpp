#include "steplint/gui/format.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace steplint::gui {
namespace {

std::string printf1(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

std::string formatDurationNs(int64_t ns) {
  const double magnitude = std::abs(static_cast<double>(ns));
  if (magnitude < 1e3) return std::to_string(ns) + " ns";
  if (magnitude < 1e6) return printf1("%.1f µs", static_cast<double>(ns) / 1e3);
  if (magnitude < 1e9) return printf1("%.3f ms", static_cast<double>(ns) / 1e6);
  return printf1("%.3f s", static_cast<double>(ns) / 1e9);
}

std::string formatFraction(double fraction) {
  if (fraction < 0 || std::isnan(fraction)) return "n/a";
  return printf1("%.1f %%", fraction * 100.0);
}

std::string formatBytes(int64_t bytes) {
  const double b = static_cast<double>(bytes);
  if (std::abs(b) < 1024) return std::to_string(bytes) + " B";
  if (std::abs(b) < 1024.0 * 1024) return printf1("%.1f KiB", b / 1024);
  if (std::abs(b) < 1024.0 * 1024 * 1024) return printf1("%.1f MiB", b / (1024.0 * 1024));
  return printf1("%.2f GiB", b / (1024.0 * 1024 * 1024));
}

}  // namespace steplint::gui
