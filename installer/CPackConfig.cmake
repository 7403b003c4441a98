# SPDX-License-Identifier: GPL-3.0-or-later
# Desktop integration: the application entry, its icon, and the project file type
# (pcap/pcapng types come from shared-mime-info; the entry opens them too).
install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/windscope.desktop"
    DESTINATION share/applications)
install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/windscope-mime.xml"
    DESTINATION share/mime/packages RENAME windscope.xml)
install(FILES "${PROJECT_SOURCE_DIR}/resources/desktop/windscope.svg"
    DESTINATION share/icons/hicolor/scalable/apps)

set(CPACK_PACKAGE_NAME "windscope")
set(CPACK_PACKAGE_VENDOR "Windscope")
set(CPACK_PACKAGE_CONTACT "Windscope maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION "net")
# tshark/wireshark are what the plugin plugs into; suggested, not required.
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "wireshark | tshark")
include(CPack)
