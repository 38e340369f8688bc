#include "text_table.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace steplint::analyzer {
namespace {

void pad(std::ostream& out, const std::string& cell, size_t width, TextTable::Align align) {
  const std::string fill(width - std::min(width, displayWidth(cell)), ' ');
  if (align == TextTable::Align::kRight)
    out << fill << cell;
  else
    out << cell << fill;
}

}  // namespace

// Cells often quote the trace (kernel and op names, GPU names): one line each, escapes shown
// (display_text.h), and widths in code points so UTF-8 names (µs) keep the columns aligned.
void TextTable::addRow(std::vector<std::string> cells) {
  for (std::string& cell : cells) cell = displayText(cell);
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out, const std::string& indent) const {
  std::vector<size_t> widths;
  for (const Column& c : columns_) widths.push_back(displayWidth(c.title));
  for (const auto& row : rows_)
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], displayWidth(row[i]));
  auto printLine = [&](auto cellAt) {
    out << indent;
    for (size_t i = 0; i < columns_.size(); ++i) {
      if (i > 0) out << "  ";
      // The last left-aligned column is not padded: no trailing blanks.
      if (i + 1 == columns_.size() && columns_[i].align == Align::kLeft)
        out << cellAt(i);
      else
        pad(out, cellAt(i), widths[i], columns_[i].align);
    }
    out << '\n';
  };
  printLine([&](size_t i) { return columns_[i].title; });
  for (const auto& row : rows_)
    printLine([&](size_t i) { return i < row.size() ? row[i] : std::string(); });
}

std::string formatFixed(double value, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string formatMs(double ns) { return formatFixed(ns / 1e6, 3); }

std::string formatUsExact(int64_t ns) {
  // Absolute timestamps (~1.6e18 ns) exceed a double's exact range; format the digits directly.
  const bool negative = ns < 0;
  const uint64_t magnitude = negative ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  char buf[48];
  std::snprintf(buf, sizeof buf, "%s%llu.%03llu", negative ? "-" : "",
                static_cast<unsigned long long>(magnitude / 1000),
                static_cast<unsigned long long>(magnitude % 1000));
  return buf;
}

std::string formatPercent(double fraction) { return formatFixed(100.0 * fraction, 2) + "%"; }

std::string formatCount(uint64_t n) {
  std::string digits = std::to_string(n), out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

}  // namespace steplint::analyzer
