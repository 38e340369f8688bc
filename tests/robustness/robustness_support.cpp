#include "robustness_support.h"

#include <sys/resource.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <catch2/catch.hpp>

namespace steplint::test {

std::string readFileBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE(in.good());
  std::ostringstream buf;
  buf << in.rdbuf();
  return buf.str();
}

Gunzipped gunzipPrefix(std::string_view gz) {
  Gunzipped out;
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 16) != Z_OK) return out;
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz.data()));
  zs.avail_in = static_cast<uInt>(gz.size());
  char buf[1 << 16];
  int rc = Z_OK;
  do {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof(buf);
    rc = inflate(&zs, Z_NO_FLUSH);
    out.text.append(buf, sizeof(buf) - zs.avail_out);
  } while (rc == Z_OK && (zs.avail_in > 0 || zs.avail_out == 0));
  out.complete = rc == Z_STREAM_END;
  inflateEnd(&zs);
  return out;
}

size_t keptRecords(const trace::TraceModel& model) {
  return model.events.size() + model.memory_events.size() + model.instants.size() +
         model.counters.size() + model.flows.size();
}

namespace {

// VmRSS / VmHWM from /proc/self/status, in bytes (-1 when unavailable).
int64_t statusBytes(const char* key) {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return -1;
  char line[256];
  int64_t result = -1;
  size_t key_len = std::char_traits<char>::length(key);
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::char_traits<char>::compare(line, key, key_len) == 0 && line[key_len] == ':') {
      result = std::atoll(line + key_len + 1) * 1024;
      break;
    }
  }
  std::fclose(f);
  return result;
}

}  // namespace

PeakMemoryProbe::PeakMemoryProbe() {
  std::FILE* f = std::fopen("/proc/self/clear_refs", "w");
  if (f != nullptr) {
    precise_ =
        std::fputs("5", f) >= 0;  // "5": reset the peak RSS to the current RSS (Linux >= 4.0)
    precise_ = (std::fclose(f) == 0) && precise_;
  }
  if (precise_) {
    start_rss_ = statusBytes("VmRSS");
    precise_ = start_rss_ >= 0;
  }
  if (!precise_) {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    start_rss_ = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  }
}

int64_t PeakMemoryProbe::peakDeltaBytes() const {
  int64_t peak = -1;
  if (precise_) peak = statusBytes("VmHWM");
  if (peak < 0) {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    peak = static_cast<int64_t>(usage.ru_maxrss) * 1024;
  }
  return peak - start_rss_;
}

int envCount(const char* name, int fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  int n = std::atoi(v);
  return n > 0 ? n : fallback;
}

}  // namespace steplint::test
