# NB_FUZZ: one clang tree for the fuzzers and the sanitized unit suites. Every object is built
# with the fuzzer's coverage hooks and ASan+UBSan, so the same libraries serve both the fuzz
# executables (tests/fuzz, linked with -fsanitize=fuzzer) and the gtest suites (linked with the
# sanitizers only): CI builds one sanitizer tree instead of two.
option(NB_FUZZ "Build with clang's libFuzzer hooks, ASan and UBSan, and the fuzz targets" OFF)
if(NB_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "NB_FUZZ needs clang: configure with -DCMAKE_CXX_COMPILER=clang++")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=all)
  add_link_options(-fsanitize=address,undefined)
endif()
