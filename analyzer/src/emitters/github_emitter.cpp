// GitHub Actions workflow commands, one annotation per finding:
//   ::warning file=run/a.json,title=SL101 dataloader-wait::DataLoader wait is 33% ...
// Escaping follows the runner (actions/toolkit command.ts): in the message % \r \n become
// %25 %0D %0A; in properties ':' and ',' are escaped as well (%3A %2C).
#include <ostream>

#include "builtin_emitters.h"
#include "emit_util.h"
#include "steplint/analyzer/display_text.h"

namespace steplint::analyzer {
namespace {

// Valid UTF-8 with the control characters other than line breaks (which escapeData encodes)
// shown escaped: the runner's log view interprets ANSI sequences.
std::string printable(std::string_view text) {
  std::string out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '\n' && text[i] != '\r') continue;
    out += displayText(text.substr(start, i - start));
    if (i < text.size()) out += text[i];
    start = i + 1;
  }
  return out;
}

std::string escapeData(std::string_view text) {
  std::string out;
  for (char c : printable(text)) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string escapeProperty(std::string_view text) {
  std::string out;
  for (char c : escapeData(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string_view command(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "notice";
  }
  return "warning";
}

}  // namespace

void GithubEmitter::emit(const LintReport& report, const EmitOptions& options,
                         std::ostream& out) const {
  for (const TraceReport& t : report.traces) {
    const std::string path = emit::displayPath(t.lint.source, options.base_dir);
    for (const Diagnostic& d : t.lint.diagnostics) {
      std::string message = d.message;
      if (auto step = emit::firstStep(d))
        message = "step " + std::to_string(*step) + ": " + message;
      if (const std::string saving = emit::savingText(d.saving); !saving.empty())
        message += " (est. saving " + saving + ")";
      out << "::" << command(d.severity) << " file=" << escapeProperty(path)
          << ",title=" << escapeProperty(d.code + " " + d.name) << "::" << escapeData(message)
          << '\n';
    }
  }
  for (const std::string& w : report.warnings)
    out << "::warning title=steplint::" << escapeData(w) << '\n';
}

}  // namespace steplint::analyzer
