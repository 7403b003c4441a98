# SPDX-License-Identifier: GPL-3.0-or-later
option(WINDSCOPE_BUILD_TESTS "Build the test suite" ON)
option(WINDSCOPE_BUILD_BENCH "Build the benchmark helpers" ON)
option(WINDSCOPE_BUILD_FUZZ "Build libFuzzer harnesses (needs clang)" OFF)
option(WINDSCOPE_SANITIZE "Build with AddressSanitizer and UBSan" OFF)
option(WINDSCOPE_WERROR "Treat warnings as errors" OFF)
set(WINDSCOPE_SHARED_DIR "${CMAKE_CURRENT_SOURCE_DIR}/../shared" CACHE PATH
    "Shared test material (captures with manifests); tests needing it skip when absent")

add_feature_info(Tests WINDSCOPE_BUILD_TESTS "unit, golden, differential and fuzz-regression tests")
add_feature_info(Bench WINDSCOPE_BUILD_BENCH "benchmark helpers in bench/")
add_feature_info(Fuzz WINDSCOPE_BUILD_FUZZ "libFuzzer harnesses for reader and dissectors")
add_feature_info(Sanitizers WINDSCOPE_SANITIZE "ASan + UBSan instrumentation")

if(WINDSCOPE_SANITIZE)
    add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=address,undefined)
    # The shared runtime an uninstrumented program (tshark) must load first to host an
    # instrumented plugin: the Wireshark plugin tests preload it.
    if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
        set(sanitizer_runtime_name "libclang_rt.asan-${CMAKE_SYSTEM_PROCESSOR}.so")
    else()
        set(sanitizer_runtime_name "libasan.so")
    endif()
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-file-name=${sanitizer_runtime_name}
        OUTPUT_VARIABLE WINDSCOPE_SANITIZER_RUNTIME OUTPUT_STRIP_TRAILING_WHITESPACE)
endif()
