#include "steplint/gui/rich_text.h"

#include <QTextDocument>

namespace steplint::gui {
namespace {

// Markdown punctuation that can start emphasis, links, images, headings, tables, strikeout,
// escapes or code anywhere in a line. CommonMark lets any ASCII punctuation be escaped.
bool isMarkdownActive(QChar c) {
  return c == u'\\' || c == u'*' || c == u'_' || c == u'[' || c == u']' || c == u'#' || c == u'|' ||
         c == u'~' || c == u'!' || c == u'`';
}

// The number of backticks in the run starting at `at`.
qsizetype backtickRun(const QString& text, qsizetype at) {
  qsizetype n = 0;
  while (at + n < text.size() && text[at + n] == u'`') ++n;
  return n;
}

// Where the code span opened by `run` backticks at `at` closes (the index after it), or -1.
qsizetype codeSpanEnd(const QString& text, qsizetype at, qsizetype run) {
  for (qsizetype i = at + run; i < text.size();) {
    const qsizetype n = backtickRun(text, i);
    if (n == run) return i + n;
    i += n > 0 ? n : 1;
  }
  return -1;
}

void appendLiteral(QString& out, QChar c) {
  if (c == u'&' || c == u'<' || c == u'>' || c == u'"') {
    out += QString(c).toHtmlEscaped();
  } else {
    if (isMarkdownActive(c)) out += u'\\';
    out += c;
  }
}

// A leading "-", "+" or "1." / "1)" would start a list item; ">" is already an entity.
QString escapeLineStart(const QString& text) {
  qsizetype digits = 0;
  while (digits < text.size() && text[digits].isDigit()) ++digits;
  const bool ordered =
      digits > 0 && digits < text.size() && (text[digits] == u'.' || text[digits] == u')');
  if (ordered) return text.left(digits) + u'\\' + text.mid(digits);
  if (!text.isEmpty() && (text[0] == u'-' || text[0] == u'+')) return u'\\' + text;
  return text;
}

}  // namespace

QString markdownLiteral(const QString& text) {
  QString out;
  out.reserve(text.size() + text.size() / 4);
  for (qsizetype i = 0; i < text.size();) {
    if (text[i] == u'`') {
      const qsizetype run = backtickRun(text, i);
      const qsizetype end = codeSpanEnd(text, i, run);
      if (end > 0) {
        out += text.mid(i, end - i);
        i = end;
        continue;
      }
      for (qsizetype k = 0; k < run; ++k) appendLiteral(out, u'`');  // unmatched: literal backticks
      i += run;
      continue;
    }
    appendLiteral(out, text[i]);
    ++i;
  }
  return escapeLineStart(out);
}

QString tooltipLiteral(const QString& text) {
  return text.isEmpty() ? text : Qt::convertFromPlainText(text, Qt::WhiteSpaceNormal);
}

}  // namespace steplint::gui
