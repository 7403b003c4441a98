# SPDX-License-Identifier: GPL-3.0-or-later
find_package(PkgConfig REQUIRED)
pkg_check_modules(PCAP REQUIRED IMPORTED_TARGET libpcap)
set_package_properties(PCAP PROPERTIES TYPE REQUIRED PURPOSE "reading pcap and pcapng files")
find_package(ZLIB REQUIRED)
set_package_properties(ZLIB PROPERTIES TYPE REQUIRED PURPOSE "reading gzip-compressed captures")
find_package(Threads REQUIRED)
# Header-only; reads the scenario files users edit (analysis/replay/scenario).
find_package(nlohmann_json 3.2 REQUIRED)
set_package_properties(nlohmann_json PROPERTIES TYPE REQUIRED PURPOSE "reading replay scenario files")

find_package(Qt6 COMPONENTS Core Gui Widgets Test OPTIONAL_COMPONENTS PrintSupport Svg)
set_package_properties(Qt6 PROPERTIES TYPE RECOMMENDED PURPOSE "the desktop application")
find_package(QCustomPlotQt6 QUIET)
if(NOT QCustomPlotQt6_FOUND)
    # Debian's libqcustomplot-dev ships the library without a CMake package in some releases.
    find_library(QCUSTOMPLOT_LIBRARY NAMES qcustomplot-qt6 QCustomPlotQt6)
    find_path(QCUSTOMPLOT_INCLUDE_DIR qcustomplot.h)
endif()
find_package(SQLite3)
set_package_properties(SQLite3 PROPERTIES TYPE RECOMMENDED PURPOSE "project files")
find_package(OpenSSL COMPONENTS Crypto)
set_package_properties(OpenSSL PROPERTIES TYPE RECOMMENDED
    PURPOSE "SHA-256 of the captures in a project file")
find_package(GTest)
set_package_properties(GTest PROPERTIES TYPE RECOMMENDED PURPOSE "unit tests")
find_program(TSHARK_EXECUTABLE tshark)
find_program(TCPTRACE_EXECUTABLE tcptrace)

# libwireshark for the full dissection tree and 802.11 decryption (dissectors/wireshark).
# Its API changes between minor releases, so the version is recorded and checked.
pkg_check_modules(WIRESHARK IMPORTED_TARGET wireshark)
find_library(WIRESHARK_WIRETAP_LIBRARY wiretap)
if(WIRESHARK_FOUND AND WIRESHARK_WIRETAP_LIBRARY)
    if(NOT WIRESHARK_VERSION VERSION_GREATER_EQUAL 4.0 OR NOT WIRESHARK_VERSION VERSION_LESS 4.1)
        message(WARNING "libwireshark ${WIRESHARK_VERSION} found; the epan backend is written "
                        "for 4.0.x and is left out")
        set(WINDSCOPE_HAVE_WIRESHARK OFF)
    else()
        set(WINDSCOPE_HAVE_WIRESHARK ON)
        string(REGEX MATCH "^[0-9]+\\.[0-9]+" WIRESHARK_VERSION_MAJOR_MINOR "${WIRESHARK_VERSION}")
    endif()
else()
    set(WINDSCOPE_HAVE_WIRESHARK OFF)
endif()
set_package_properties(WIRESHARK PROPERTIES TYPE OPTIONAL
    DESCRIPTION "libwireshark (epan and wiretap)"
    PURPOSE "packet details (windscope-cli packet) and WPA/WPA2 decryption")
add_feature_info(Wireshark WINDSCOPE_HAVE_WIRESHARK
    "epan backend built against libwireshark ${WIRESHARK_VERSION}")
