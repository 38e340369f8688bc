# Third-party libraries. All are Debian packages (scripts/install-deps.sh installs them).
find_package(simdjson REQUIRED)
find_package(ZLIB REQUIRED)
find_package(CLI11 REQUIRED)
find_package(nlohmann_json 3 REQUIRED)
# steplint.toml / pyproject.toml lint configuration (analyzer/src/lint_config*.cpp).
find_package(tomlplusplus REQUIRED)
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
# ISA-L's igzip inflates about twice as fast as zlib; gzip input is the common case.
pkg_check_modules(ISAL IMPORTED_TARGET libisal)
if(STEPLINT_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  include(Catch)
endif()
