# `cmake --install <build> --prefix P` lays out what users of the linked API and of
# `steplint record` need, and find_package(steplint) finds it:
#   P/lib/libsteplint_collector.so, P/lib/libsteplint_preload.so  (side by side: the preload
#                                      loads the collector from its own directory)
#   P/include/steplint/collector.h, torch_data.h
#   P/lib/cmake/steplint/steplintConfig.cmake, ...Targets.cmake, ...ConfigVersion.cmake
#                                      → target steplint::collector
#   P/bin/steplint                     (analysis build only; `record` finds the preload in
#                                      P/<libdir>)
#   P/bin/steplint-gui                 (when Qt6 was found)
# tests/install/ installs into a scratch prefix and builds a consumer against it.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(STEPLINT_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/steplint)
# The installed collector finds libtorch and libcupti where it was linked against them.
set_target_properties(steplint_collector PROPERTIES EXPORT_NAME collector INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS steplint_collector EXPORT steplintTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS steplint_preload LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# The Python import hook, next to the preload where `steplint record` looks for it.
install(FILES ${PROJECT_SOURCE_DIR}/collector/python/sitecustomize.py
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/steplint_python)
install(FILES ${PROJECT_SOURCE_DIR}/collector/include/steplint/collector.h
              ${PROJECT_SOURCE_DIR}/collector/include/steplint/torch_data.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/steplint)
install(EXPORT steplintTargets NAMESPACE steplint:: DESTINATION ${STEPLINT_CMAKE_DIR})

file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/steplintConfig.cmake
     "# find_package(steplint): the collector's linked API, target steplint::collector.\n"
     "include(\"\${CMAKE_CURRENT_LIST_DIR}/steplintTargets.cmake\")\n")
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/steplintConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/steplintConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/steplintConfigVersion.cmake
        DESTINATION ${STEPLINT_CMAKE_DIR})

if(TARGET steplint)
  install(TARGETS steplint RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
if(TARGET steplint-gui)
  install(TARGETS steplint-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
