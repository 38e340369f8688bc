// A minimal aligned text table for terminal output (internal to the analyzer).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "steplint/analyzer/display_text.h"  // displayText, truncateMiddle

namespace steplint::analyzer {

class TextTable {
 public:
  enum class Align { kLeft, kRight };
  struct Column {
    std::string title;
    Align align = Align::kRight;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  /// Each cell as displayText() shows it.
  void addRow(std::vector<std::string> cells);
  bool empty() const { return rows_.empty(); }
  /// Prints the header and the rows, each line starting with `indent`.
  void print(std::ostream& out, const std::string& indent = "  ") const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Number formatting shared by the text renderer.
std::string formatFixed(double value, int decimals);
std::string formatMs(double ns);             // "12.345"
std::string formatUsExact(int64_t ns);       // "1623142623460016.250": exact, no double rounding
std::string formatPercent(double fraction);  // "55.51%"
std::string formatCount(uint64_t n);         // "75,718"

}  // namespace steplint::analyzer
