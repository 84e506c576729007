# `cmake --install BUILD [--prefix DIR]`: the command-line tool and, in
# builds with position-independent code (api/CMakeLists.txt), the library
# libmemplan.so, its headers (include/memplan/), a CMake package
# (find_package(memplan) -> memplan::memplan) and a pkg-config file.
include(CMakePackageConfigHelpers)

install(TARGETS memplan RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

if(TARGET memplan_shared)
  install(TARGETS memplan_shared EXPORT memplanTargets
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/memplan
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
  set(memplan_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/memplan)
  install(EXPORT memplanTargets NAMESPACE memplan:: DESTINATION ${memplan_cmake_dir})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/memplanConfig.cmake.in
    ${PROJECT_BINARY_DIR}/memplanConfig.cmake INSTALL_DESTINATION ${memplan_cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/memplanConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/memplanConfig.cmake
                ${PROJECT_BINARY_DIR}/memplanConfigVersion.cmake
          DESTINATION ${memplan_cmake_dir})
  # @ONLY with the install prefix substituted at install time: the .pc file
  # names the prefix given to `cmake --install --prefix`.
  install(CODE "
    set(prefix \"\${CMAKE_INSTALL_PREFIX}\")
    set(PROJECT_VERSION \"${PROJECT_VERSION}\")
    set(CMAKE_INSTALL_LIBDIR \"${CMAKE_INSTALL_LIBDIR}\")
    set(CMAKE_INSTALL_INCLUDEDIR \"${CMAKE_INSTALL_INCLUDEDIR}\")
    configure_file(\"${PROJECT_SOURCE_DIR}/cmake/memplan.pc.in\"
                   \"\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/memplan.pc\" @ONLY)
    message(STATUS \"Installing: \${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig/memplan.pc\")
  ")
endif()
