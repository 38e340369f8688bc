#include "sample_mistakes.h"

namespace steplint::samples {

MistakeSet MistakeSet::all() {
  MistakeSet set = none();
  for (const MistakeInfo& info : kMistakes) set.add(info.mistake);
  return set;
}

bool MistakeSet::parse(std::string_view text, MistakeSet* out, std::string* bad) {
  if (text == "all" || text == "none") {
    *out = text == "all" ? all() : none();
    return true;
  }
  MistakeSet set = none();
  while (true) {
    const size_t comma = text.find(',');
    const std::string_view name = text.substr(0, comma);
    bool known = false;
    for (const MistakeInfo& info : kMistakes) {
      if (info.name != name) continue;
      set.add(info.mistake);
      known = true;
    }
    if (!known) {
      *bad = std::string(name);
      return false;
    }
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  *out = set;
  return true;
}

std::string MistakeSet::names() const {
  std::string out;
  for (const MistakeInfo& info : kMistakes) {
    if (!has(info.mistake)) continue;
    if (!out.empty()) out += ',';
    out += info.name;
  }
  return out.empty() ? "none" : out;
}

std::string mistakeNamesForUsage() {
  std::string out = "all, none";
  for (const MistakeInfo& info : kMistakes) {
    out += ", ";
    out += info.name;
  }
  return out;
}

}  // namespace steplint::samples
