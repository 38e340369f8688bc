// The fuzzers' seed corpora and the crash inputs kept in them (fuzz/corpus*), replayed through
// the fuzz targets themselves on every test run: the targets' invariants (every step's time
// counted once, no saving above the step, every failure named) then hold under g++, and
// under ASan + UBSan in CI's sanitizer step, not only in the clang fuzz build. The targets are
// compiled into this executable with LLVMFuzzerTestOneInput renamed (CMakeLists.txt).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int steplintFuzzImport(const uint8_t* data, size_t size);
extern "C" int steplintFuzzAnalysis(const uint8_t* data, size_t size);
extern "C" int steplintFuzzJob(const uint8_t* data, size_t size);
extern "C" int steplintFuzzConfig(const uint8_t* data, size_t size);

namespace {

using FuzzTarget = int (*)(const uint8_t*, size_t);

std::vector<std::filesystem::path> corpus(const std::string& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(STEPLINT_FUZZ_DIR) + "/" + dir))
    if (entry.is_regular_file()) files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

void replay(const std::string& dir, FuzzTarget target, size_t at_least) {
  const std::vector<std::filesystem::path> files = corpus(dir);
  CHECK(files.size() >= at_least);
  for (const auto& path : files) {
    INFO(path.string());
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    REQUIRE(!bytes.empty());
    CHECK(target(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == 0);
  }
}

}  // namespace

TEST_CASE("fuzz corpora: the importer's seeds and kept crash inputs run clean", "[fuzz]") {
  replay("corpus", steplintFuzzImport, 20);
}

TEST_CASE("fuzz corpora: the analyses, rules and reports on their seeds run clean", "[fuzz]") {
  replay("corpus_analysis", steplintFuzzAnalysis, 8);
}

TEST_CASE("fuzz corpora: the job side on its seeds and kept crash input runs clean", "[fuzz]") {
  replay("corpus_job", steplintFuzzJob, 5);
}

TEST_CASE("fuzz corpora: configs and baselines, and the rules they set, run clean", "[fuzz]") {
  replay("corpus_config", steplintFuzzConfig, 7);
}
