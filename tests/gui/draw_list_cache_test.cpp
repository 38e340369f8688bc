#include "steplint/gui/draw_list_cache.h"

#include <catch2/catch.hpp>

#include "timeline_test_trace.h"

using steplint::gui::DrawItem;
using steplint::gui::DrawListCache;
using steplint::gui::TimelineGeometry;
using steplint::gui::TimelineIndex;
using steplint::test::addTrack;
using steplint::test::regularEvents;
using steplint::trace::TraceModel;
using steplint::trace::TrackKind;

TEST_CASE("draw list cache: levels are powers of two of ns per px") {
  CHECK(DrawListCache::levelOf(0.3) == 0);
  CHECK(DrawListCache::levelOf(1.0) == 0);
  CHECK(DrawListCache::levelOf(1.99) == 0);
  CHECK(DrawListCache::levelOf(2.0) == 1);
  CHECK(DrawListCache::levelOf(1000.0) == 9);
  const TimelineGeometry g{{1'000'000, 2'000'000}, 1000.0};  // 1000 ns/px → level 9 (512 ns/px)
  const TimelineGeometry w = DrawListCache::dataWindow(g, 1.0);
  CHECK(w.range.start_ns == 0);
  CHECK(w.range.end_ns == 3'000'000);
  CHECK(w.nsPerPx() == Approx(512.0));
  const TimelineGeometry same = DrawListCache::dataWindow(g, 0.0);
  CHECK(same.range.start_ns == g.range.start_ns);
  CHECK(same.width_px == g.width_px);
}

TEST_CASE(
    "draw list cache: with a data window, panning and zooming within the level reuse the list") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1,
           regularEvents(0, 20'000, 10'000, 5000, "op"));  // 0..100 ms
  const TimelineIndex index(m);
  DrawListCache cache(1.0);
  const TimelineGeometry g{{10'000'000, 11'000'000}, 1000.0};
  const auto& first = cache.events(m, index, 0, g);
  CHECK(cache.builds() == 1);
  // Every event the plain draw list shows is in the cached one, at the same time.
  const auto direct = steplint::gui::buildDrawList(m, index, 0, g);
  size_t found = 0;
  for (const DrawItem& d : direct) {
    for (const DrawItem& c : first) found += c.index == d.index && c.start_ns == d.start_ns ? 1 : 0;
  }
  CHECK(found == direct.size());

  cache.events(m, index, 0, TimelineGeometry{{10'500'000, 11'500'000}, 1000.0});  // pan half a view
  cache.events(m, index, 0,
               TimelineGeometry{{10'100'000, 11'000'000}, 1000.0});  // 900 ns/px: same level
  CHECK(cache.builds() == 1);
  cache.events(m, index, 0,
               TimelineGeometry{{12'100'000, 13'100'000}, 1000.0});  // out of the window
  CHECK(cache.builds() == 2);
  cache.events(m, index, 0,
               TimelineGeometry{{12'100'000, 12'400'000}, 1000.0});  // 300 ns/px: new level
  CHECK(cache.builds() == 3);
  cache.steps(
      {}, TimelineGeometry{{12'100'000, 12'400'000}, 1000.0});  // the Steps row has its own entry
  CHECK(cache.builds() == 4);
  cache.clear();
  cache.events(m, index, 0, TimelineGeometry{{12'100'000, 12'400'000}, 1000.0});
  CHECK(cache.builds() == 5);
}

TEST_CASE("draw list cache: without a margin it is a memo of the exact frame") {
  TraceModel m;
  addTrack(m, TrackKind::kCpuThread, 1, 1, regularEvents(0, 20'000, 10'000, 5000, "op"));
  const TimelineIndex index(m);
  DrawListCache cache;
  const TimelineGeometry g{{10'005'000, 11'005'000}, 1000.0};
  const auto& items = cache.events(m, index, 0, g);
  const auto direct = steplint::gui::buildDrawList(m, index, 0, g);
  REQUIRE(items.size() == direct.size());
  for (size_t i = 0; i < items.size(); ++i) {
    CHECK(items[i].index == direct[i].index);
    CHECK(items[i].x0 == direct[i].x0);
  }
  cache.events(m, index, 0, g);  // a repaint (scroll, selection): reused
  CHECK(cache.builds() == 1);
  cache.events(m, index, 0,
               TimelineGeometry{{10'005'001, 11'005'001}, 1000.0});  // any pan: rebuilt
  CHECK(cache.builds() == 2);
  cache.events(m, index, 0,
               TimelineGeometry{{10'005'001, 11'005'001}, 999.0});  // a resize: rebuilt
  CHECK(cache.builds() == 3);
}
