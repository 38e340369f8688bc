# Build switches. Everything the analyzer and CLI need is found here; torch, CUPTI
# and Qt are optional and auto-detected by the components that use them.
option(STEPLINT_BUILD_TESTS "Catch2 tests" ON)
option(STEPLINT_BUILD_BENCH "Benchmarks and the synthetic trace generator" ON)
option(STEPLINT_BUILD_FUZZ  "libFuzzer targets (needs clang)" OFF)
option(STEPLINT_SANITIZE    "Build with ASan and UBSan" OFF)
option(STEPLINT_WERROR      "Treat warnings as errors (CI)" OFF)

# Where the shared real-world traces live (never copied into this repository).
set(STEPLINT_FIXTURES "${CMAKE_SOURCE_DIR}/../shared/fixtures" CACHE PATH
    "Directory of the shared reference traces; tests that need them skip when absent")

# float-cast-overflow (a double too large for its integer, e.g. a hostile option or timestamp
# converted to int64) is part of clang's "undefined" but not of GCC's, so it is named.
if(STEPLINT_SANITIZE)
  add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined,float-cast-overflow)
  add_link_options(-fsanitize=address,undefined,float-cast-overflow)
endif()

# The analysis side (importer, analyzer, rules, CLI) needs Debian's simdjson, toml++, CLI11 and
# nlohmann-json. A GPU machine without them builds the collector and samples only
# (docs/gpu.md: -DSTEPLINT_ANALYZER=OFF).
option(STEPLINT_ANALYZER "Importer, analyzer, rules, CLI and their tests" ON)
option(STEPLINT_BUILD_SAMPLES "Sample LibTorch trainers (samples/, needs LibTorch)" ON)

# The Qt6 desktop app (gui/). Auto: built when Qt6 Widgets is found (Debian: qt6-base-dev).
set(STEPLINT_BUILD_GUI "AUTO" CACHE STRING "Build steplint-gui: ON, OFF or AUTO (when Qt6 is found)")
set_property(CACHE STEPLINT_BUILD_GUI PROPERTY STRINGS AUTO ON OFF)
