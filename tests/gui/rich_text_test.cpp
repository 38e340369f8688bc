// Trace and rule text in rich-text widgets renders character for character (issue 13: a fix
// hint "call .item<float>()" showed as "call .item" in the advice panel).
#include "steplint/gui/rich_text.h"

#include <QTextBrowser>
#include <QTextDocument>
#include <catch2/catch.hpp>

#include "advice_panel.h"
#include "gui_test_traces.h"
#include "steplint/gui/selection_and_zoom.h"

using namespace steplint;

namespace {

QString renderedMarkdown(const QString& markdown) {
  QTextDocument doc;
  doc.setMarkdown(markdown);
  return doc.toPlainText();
}

QString renderedHtml(const QString& html) {
  QTextDocument doc;
  doc.setHtml(html);
  return doc.toPlainText();
}

}  // namespace

TEST_CASE("markdownLiteral keeps every character of trace and fix text") {
  for (const QString& text :
       {QStringLiteral("call .item<float>() every N steps"),
        QStringLiteral("enumerate(DataLoader)#_Iter.__next__"),
        QStringLiteral("a & b < c > d \"q\""),
        QStringLiteral("void at::native::kernel<4, float*>[2] | ~x~ !y #z"),
        QStringLiteral("back\\slash and *stars*"), QStringLiteral("- starts like a list"),
        QStringLiteral("1. starts like an ordered list"),
        QStringLiteral("an ` unmatched backtick")}) {
    INFO(text.toStdString());
    CHECK(renderedMarkdown(gui::markdownLiteral(text)) == text);
  }
}

TEST_CASE("markdownLiteral leaves code spans as written") {
  const QString text = QStringLiteral("leave the `with torch.profiler.profile(...)` block");
  CHECK(gui::markdownLiteral(text) ==
        QStringLiteral("leave the `with torch.profiler.profile(...)` block"));
  CHECK(renderedMarkdown(gui::markdownLiteral(text)) ==
        QStringLiteral("leave the with torch.profiler.profile(...) block"));
}

TEST_CASE("tooltipLiteral never lets a trace name pass for HTML") {
  const QString name = QStringLiteral("<b>kernel</b><float>\nsecond line");
  CHECK(Qt::mightBeRichText(gui::tooltipLiteral(name)));  // explicit HTML, so Qt does not guess
  CHECK(renderedHtml(gui::tooltipLiteral(name)) ==
        QStringLiteral("<b>kernel</b><float>\nsecond line"));
  CHECK(gui::tooltipLiteral(QString()).isEmpty());
}

TEST_CASE("advice panel: a fix containing .item<float>() renders those characters") {
  test::SmallTraceEvents ev;
  auto trace = test::smallTrace(&ev);
  test::addFindings(*trace, ev);
  analyzer::Diagnostic& d = trace->lint.diagnostics[0];
  d.message = "loss.item<float>() in enumerate(DataLoader)#_Iter.__next__ syncs the host";
  d.fix = {"LibTorch: accumulate the loss as a tensor and call .item<float>() every N steps",
           "Python: x.to(\"cuda\", non_blocking=True) & pin_memory=True"};
  gui::SelectionAndZoom selection;
  selection.reset({0, 300'000});
  gui::AdvicePanel panel(&selection);
  panel.setTrace(trace);
  REQUIRE(panel.selectFirstFinding(QStringLiteral("SL201")));
  const QString shown = panel.docBrowser()->toPlainText();
  INFO(shown.toStdString());
  CHECK(shown.contains(QStringLiteral(
      "LibTorch: accumulate the loss as a tensor and call .item<float>() every N steps")));
  CHECK(shown.contains(
      QStringLiteral("Python: x.to(\"cuda\", non_blocking=True) & pin_memory=True")));
  CHECK(shown.contains(
      QStringLiteral("loss.item<float>() in enumerate(DataLoader)#_Iter.__next__ syncs the host")));
}
