#include "steplint/rules/rule_docs.h"

namespace steplint::rules {
namespace {

std::string_view trim(std::string_view text) {
  const size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos) return {};
  const size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

}  // namespace

const RuleDoc* findRuleDoc(std::string_view code) {
  for (const RuleDoc& doc : embeddedRuleDocs()) {
    if (doc.file_name.size() > code.size() && doc.file_name.substr(0, code.size()) == code &&
        doc.file_name[code.size()] == '-')
      return &doc;
  }
  return nullptr;
}

std::string docSection(std::string_view markdown, std::string_view heading) {
  const std::string marker = "## " + std::string(heading);
  size_t at = 0;
  while ((at = markdown.find(marker, at)) != std::string_view::npos) {
    const size_t line_end = markdown.find('\n', at);
    const bool line_start = at == 0 || markdown[at - 1] == '\n';
    const bool whole = trim(markdown.substr(at, line_end - at)) == marker;
    if (line_start && whole && line_end != std::string_view::npos) break;
    at += marker.size();
  }
  if (at == std::string_view::npos) return {};
  const size_t body = markdown.find('\n', at) + 1;
  size_t end = markdown.find("\n## ", body);
  if (end == std::string_view::npos) end = markdown.size();
  return std::string(trim(markdown.substr(body, end - body)));
}

}  // namespace steplint::rules
