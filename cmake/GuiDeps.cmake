# Finds Qt6 for gui/ and sets STEPLINT_WITH_GUI. STEPLINT_BUILD_GUI=ON makes a missing Qt6 an
# error; AUTO (the default) builds the GUI only when Qt6 is there (Debian: qt6-base-dev).
set(STEPLINT_WITH_GUI OFF)
if(NOT STEPLINT_BUILD_GUI STREQUAL "OFF")
  if(STEPLINT_BUILD_GUI STREQUAL "ON")
    find_package(Qt6 6.2 REQUIRED COMPONENTS Core Gui Widgets Test)
  else()
    find_package(Qt6 6.2 QUIET COMPONENTS Core Gui Widgets Test)
  endif()
  if(Qt6_FOUND)
    set(STEPLINT_WITH_GUI ON)
  endif()
endif()
message(STATUS "steplint: GUI ${STEPLINT_WITH_GUI} (STEPLINT_BUILD_GUI=${STEPLINT_BUILD_GUI})")
