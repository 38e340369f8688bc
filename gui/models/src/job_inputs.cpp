#include "steplint/gui/job_inputs.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include "steplint/analyzer/job.h"
#include "steplint/analyzer/rank_summary.h"
#include "steplint/trace/peek.h"

namespace steplint::gui {
namespace {

const QStringList kTraceNameFilters = {QStringLiteral("*.json"), QStringLiteral("*.json.gz")};

bool isPattern(const QString& path) {
  return !QFileInfo::exists(path) && path.contains(QRegularExpression(QStringLiteral("[*?\\[]")));
}

QStringList filesIn(const QDir& dir, const QStringList& name_filters) {
  QStringList out;
  for (const QString& name : dir.entryList(name_filters, QDir::Files, QDir::Name))
    out << dir.filePath(name);
  return out;
}

}  // namespace

bool isJobInput(const QStringList& paths) {
  if (paths.size() > 1) return true;
  return !paths.isEmpty() && (QFileInfo(paths.first()).isDir() || isPattern(paths.first()));
}

JobInputs expandJobInputs(const QStringList& paths) {
  JobInputs out;
  for (const QString& path : paths) {
    const QFileInfo info(path);
    if (info.isDir()) {
      const QStringList traces = filesIn(QDir(path), kTraceNameFilters);
      if (traces.isEmpty())
        out.problems << QObject::tr("%1: no trace files in it (*.json, *.json.gz)").arg(path);
      out.files << traces;
    } else if (isPattern(path)) {
      // The pattern's last part against its folder's files: "run/rank*.json.gz".
      const QStringList matches = filesIn(info.dir(), {info.fileName()});
      if (matches.isEmpty()) out.problems << QObject::tr("%1: matches no file").arg(path);
      out.files << matches;
    } else {
      out.files << path;
    }
  }
  return out;
}

QString singleRunTrace(const QString& path) {
  if (!isJobInput({path})) return path;
  const JobInputs inputs = expandJobInputs({path});
  if (inputs.files.size() != 1) return path;
  // Who the trace is, as the CLI's job reader judges it from the first bytes (job.h).
  const std::string file = inputs.files.first().toStdString();
  analyzer::RankSummary who;
  analyzer::setRankIdentity(trace::peekFile(file).distributed, file, who);
  return analyzer::notARankReason(who).empty() ? path : inputs.files.first();
}

}  // namespace steplint::gui
