// Trace and user text inside Qt's rich-text widgets. A QTextBrowser given markdown, a QLabel
// in Qt::RichText mode and a tooltip that looks like HTML all interpret `<…>`, `&…;`, `*`, `_`
// and friends, so a fix hint such as "call .item<float>()" or a kernel named
// "void at::native::foo<float>" would lose characters or turn bold. Every such string goes
// through one of these before it is put there.
#pragma once

#include <QString>

namespace steplint::gui {

/// `text` as literal markdown: HTML special characters become entities (toHtmlEscaped) and
/// markdown punctuation is backslash-escaped, so it renders character for character. Text
/// inside matched backticks is left alone: a code span already shows its content literally.
QString markdownLiteral(const QString& text);

/// `text` as a tooltip that always renders literally (Qt::convertFromPlainText: escaped,
/// newlines kept), instead of Qt guessing from its first tag whether it is HTML.
QString tooltipLiteral(const QString& text);

}  // namespace steplint::gui
