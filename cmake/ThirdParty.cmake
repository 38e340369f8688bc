# Third-party libraries. All are Debian packages (scripts/install-deps.sh installs them).
# zlib and threads serve everything (the collector too); the rest only the analysis side.
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
if(NOT STEPLINT_ANALYZER)
  return()
endif()
find_package(simdjson REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
# steplint.toml / pyproject.toml lint configuration (analyzer/src/lint_config*.cpp).
find_package(tomlplusplus REQUIRED)
# ISA-L's igzip inflates about twice as fast as zlib; gzip input is the common case. Optional:
# without it (or without pkg-config, as on GPU machines) gzip input goes through zlib.
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(ISAL IMPORTED_TARGET libisal)
endif()
if(STEPLINT_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
