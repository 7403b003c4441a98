# SPDX-License-Identifier: GPL-3.0-or-later
add_library(windscope_warnings INTERFACE)
target_compile_options(windscope_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
    -Wno-sign-conversion)
if(WINDSCOPE_WERROR)
    target_compile_options(windscope_warnings INTERFACE -Werror)
endif()
