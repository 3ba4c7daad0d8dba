# Install rules and CPack (DEB) settings: GPU Forecast installed like a Linux desktop application.
# Included once from the end of the top-level CMakeLists.txt, after every target exists, so the
# `if(TARGET gpuforecast)` guard below sees the GUI when it is built and skips it when it is not.
#
# Layout under the prefix (GNUInstallDirs; /usr for the .deb, e.g. ~/.local for a user install):
#   bin/gpuforecast-cli                      install rule in app/CMakeLists.txt (not repeated here)
#   bin/gpuforecast                          the GUI, when the target exists
#   share/gpuforecast/{gpus,weights,models,datasets}
#                                            found by resourceDirectory() as <exe dir>/../share/gpuforecast
#   share/man/man1/gpuforecast-cli.1.gz
#   share/applications/org.gpuforecast.GpuForecast.desktop         } with the GUI only: they describe
#   share/metainfo/org.gpuforecast.GpuForecast.metainfo.xml        } and launch `gpuforecast`
#   share/icons/hicolor/{16..256,scalable}/apps/org.gpuforecast.GpuForecast.{png,svg}
#
# Build the package: cpack -G DEB --config <build>/CPackConfig.cmake (or .ci/package.sh <build>).

set(GPUFORECAST_APP_ID org.gpuforecast.GpuForecast)
set(_gf_pkg_dir "${CMAKE_CURRENT_LIST_DIR}")

# resourceDirectory() looks for the data one level above the executable's folder, in share/gpuforecast.
# Other install directories still install, but the binaries then need GPUFORECAST_DATA_DIR.
if(NOT CMAKE_INSTALL_BINDIR STREQUAL "bin" OR NOT GPUFORECAST_INSTALL_DATADIR STREQUAL "share/gpuforecast")
  message(WARNING "gpuforecast: the binaries look for their data in <exe dir>/../share/gpuforecast; with "
                  "CMAKE_INSTALL_BINDIR=${CMAKE_INSTALL_BINDIR} and data in ${GPUFORECAST_INSTALL_DATADIR} "
                  "an installed copy needs GPUFORECAST_DATA_DIR set")
endif()
get_target_property(_gf_engine_type gpuforecast_engine TYPE)
if(_gf_engine_type STREQUAL "SHARED_LIBRARY")
  message(WARNING "gpuforecast: packaging assumes a static engine library; with BUILD_SHARED_LIBS=ON "
                  "the installed binaries will not find libgpuforecast_engine")
endif()

# --- Run-time data -------------------------------------------------------------------------------
install(DIRECTORY
          "${GPUFORECAST_SOURCE_RESOURCES}/gpus"
          "${GPUFORECAST_SOURCE_RESOURCES}/weights"
          "${GPUFORECAST_SOURCE_RESOURCES}/models"
          "${GPUFORECAST_SOURCE_RESOURCES}/datasets"  # with its README.md and neusight/LICENSE (MIT)
        DESTINATION "${GPUFORECAST_INSTALL_DATADIR}")

# --- Manual page: the version comes from project(), the page is installed gzipped (Debian policy) --
set(_gf_man "${CMAKE_CURRENT_BINARY_DIR}/packaging/gpuforecast-cli.1")
configure_file("${_gf_pkg_dir}/gpuforecast-cli.1" "${_gf_man}" @ONLY)
find_program(GPUFORECAST_GZIP gzip)
if(GPUFORECAST_GZIP)
  add_custom_command(OUTPUT "${_gf_man}.gz"
                     COMMAND "${GPUFORECAST_GZIP}" -9 -n -k -f "${_gf_man}"
                     DEPENDS "${_gf_man}"
                     COMMENT "Compressing the gpuforecast-cli manual page"
                     VERBATIM)
  add_custom_target(gpuforecast_manpage ALL DEPENDS "${_gf_man}.gz")
  install(FILES "${_gf_man}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
else()
  install(FILES "${_gf_man}" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
endif()

# --- The desktop application -----------------------------------------------------------------------
if(TARGET gpuforecast)
  install(TARGETS gpuforecast RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")
  install(FILES "${_gf_pkg_dir}/${GPUFORECAST_APP_ID}.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${_gf_pkg_dir}/${GPUFORECAST_APP_ID}.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  # The PNGs are rendered from the SVG by packaging/icons/render-icons.sh and committed.
  install(DIRECTORY "${_gf_pkg_dir}/icons/hicolor" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons")
endif()

# --- CPack: one Debian package, gpuforecast_<version>_<arch>.deb -------------------------------------
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME gpuforecast)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")  # same source as `gpuforecast-cli --version`
set(CPACK_PACKAGE_VENDOR "GPU Forecast developers")
set(CPACK_PACKAGE_CONTACT "GPU Forecast developers <dev@gpuforecast.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "forecast deep-learning performance on GPUs you do not have")
# Kept under 80 columns a line: CPack indents each line by one space in the control file.
set(CPACK_PACKAGE_DESCRIPTION
"GPU Forecast predicts the latency of a deep-learning model - every kernel,
and the whole inference or training step - on any GPU described by its
public spec sheet: a card on a long lead time, last year's fleet, or a
design that exists only on paper.

It implements the NeuSight method (ASPLOS 2025): kernels are cut into the
tiles and waves GPU libraries use, each tile is bounded by the roofline law,
and small neural networks learn the remaining utilization. The package
ships the command-line forecaster gpuforecast-cli, the desktop application
gpuforecast (when built with the GUI), GPU spec sheets, bundled model
configurations, the trained weights and the public measurements they were
trained from.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)  # Depends from the binaries' shared libraries (needs dpkg-dev)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
