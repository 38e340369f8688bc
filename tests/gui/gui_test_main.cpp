// Catch2 runner for the GUI tests: one QApplication for the whole process, on the offscreen
// platform unless the caller chose one (CTest sets QT_QPA_PLATFORM=offscreen too).
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <catch2/catch.hpp>
#include <cstdlib>

int main(int argc, char** argv) {
  if (std::getenv("QT_QPA_PLATFORM") == nullptr) setenv("QT_QPA_PLATFORM", "offscreen", 1);
  int qt_argc = 1;
  QApplication app(qt_argc, argv);
  return Catch::Session().run(argc, argv);
}
