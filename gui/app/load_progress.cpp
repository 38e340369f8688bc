#include "load_progress.h"

#include <QProgressBar>
#include <QPushButton>
#include <QStatusBar>

#include "steplint/gui/background_loader.h"

namespace steplint::gui {

LoadProgress::LoadProgress(QStatusBar* bar)
    : QObject(bar),
      bar_(bar),
      progress_(new QProgressBar(bar)),
      cancel_(new QPushButton(tr("Cancel"), bar)) {
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(220);
  bar->addPermanentWidget(progress_);
  bar->addPermanentWidget(cancel_);
  setLoading(false);
}

void LoadProgress::setLoading(bool loading) {
  progress_->setVisible(loading);
  cancel_->setVisible(loading);
  progress_->setValue(0);
  if (!loading) bar_->clearMessage();
}

void LoadProgress::track(BackgroundLoader* loader) {
  connect(loader, &BackgroundLoader::started, this, [this] { setLoading(true); });
  connect(loader, &BackgroundLoader::progress, this,
          [this](double fraction) { progress_->setValue(static_cast<int>(fraction * 1000)); });
  connect(loader, &BackgroundLoader::finished, this, [this] { setLoading(false); });
  connect(cancel_, &QPushButton::clicked, loader, &BackgroundLoader::cancel);
}

}  // namespace steplint::gui
