// Synthetic distributed jobs written to a folder for the ranks-view tests: steplint-tracegen's
// multi-rank mode (bench/tracegen/job_synth.h) with a planted straggler of known rank and cause.
#pragma once

#include <QDir>
#include <QFile>
#include <QString>
#include <QStringList>
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "tracegen/job_synth.h"

namespace steplint::test {

/// Writes one trace per rank, `<prefix>rank<N>.pt.trace.json`, into `dir`; returns the paths.
inline QStringList writeJob(const QString& dir, const bench::JobSynthOptions& options,
                            int steps = 6, const QString& prefix = {}) {
  bench::JobSynthesizer synth(options);
  std::vector<std::string> text;
  synth.begin(text);
  for (int n = 1; n <= steps; ++n) synth.step(n, text);
  synth.end(text);
  QStringList paths;
  for (size_t r = 0; r < text.size(); ++r) {
    const QString path =
        QDir(dir).filePath(QStringLiteral("%1rank%2.pt.trace.json").arg(prefix).arg(r));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(text[r].data(), static_cast<qint64>(text[r].size()));
    paths << path;
  }
  return paths;
}

/// A 4-rank NCCL job whose rank 2 computes 8 ms longer in backward every step.
inline bench::JobSynthOptions backwardStraggler() {
  bench::JobSynthOptions options;
  options.straggler = bench::PlantedStraggler::kBackward;
  options.straggler_rank = 2;
  return options;
}

}  // namespace steplint::test
