#include <catch2/catch.hpp>

#include <string>

#include "steplint/trace/string_table.h"

using steplint::trace::StringTable;

TEST_CASE("string table interns each distinct string once", "[trace]") {
  StringTable t;
  CHECK(t.intern("") == 0);
  const auto a = t.intern("aten::addmm");
  const auto b = t.intern("cudaLaunchKernel");
  CHECK(a != b);
  CHECK(t.intern("aten::addmm") == a);
  CHECK(t.view(a) == "aten::addmm");
  CHECK(t.find("cudaLaunchKernel") == b);
  CHECK(t.find("missing") == -1);
}

TEST_CASE("string table keeps views valid while growing", "[trace]") {
  StringTable t;
  const auto first = t.intern("first");
  const std::string_view view = t.view(first);
  for (int i = 0; i < 100000; ++i) t.intern("name_" + std::to_string(i));
  CHECK(t.size() == 100002);
  CHECK(view == "first");
  CHECK(t.view(t.intern("name_99999")) == "name_99999");
  CHECK(t.intern("name_12345") == t.find("name_12345"));
}

TEST_CASE("string table clear empties it for reuse", "[trace]") {
  StringTable t;
  t.intern("x");
  t.clear();
  CHECK(t.size() == 1);
  CHECK(t.find("x") == -1);
  CHECK(t.view(t.intern("y")) == "y");
}
