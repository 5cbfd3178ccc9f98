# A library per folder: every .cpp in DIR and its subfolders. Sources are globbed so that adding a file
# to a folder needs no edit here; CONFIGURE_DEPENDS re-globs on each build.
function(nb_add_library name dir)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cpp)
  if(NOT sources)
    # A folder whose concept is still header-only still gets a target others can link.
    set(sources ${PROJECT_BINARY_DIR}/empty_${name}.cpp)
    file(WRITE ${sources} "")
  endif()
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
endfunction()

# A gtest binary per test folder, each test registered with ctest on its own.
# Suites are labelled "unit" unless the call passes LABEL integration (real daemon processes,
# sockets and timing), which the sanitizer stage leaves out.
# ONLY and EXCEPT (regular expressions over the paths) split one folder into two suites, so that
# its pure tests run in the sanitizer stage and its process-level ones do not.
function(nb_add_test_suite name dir)
  cmake_parse_arguments(suite "" "LABEL;ONLY;EXCEPT" "" ${ARGN})
  if(NOT suite_LABEL)
    set(suite_LABEL unit)
  endif()
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${dir}/*.cpp)
  if(suite_ONLY)
    list(FILTER sources INCLUDE REGEX "${suite_ONLY}")
  endif()
  if(suite_EXCEPT)
    list(FILTER sources EXCLUDE REGEX "${suite_EXCEPT}")
  endif()
  if(NOT sources)
    return()
  endif()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE ${suite_UNPARSED_ARGUMENTS} numabalancer_test_support
                                        GTest::gmock_main)
  # Tests that read fixture files or run the built binaries find them through these.
  target_compile_definitions(${name} PRIVATE NB_SOURCE_DIR="${PROJECT_SOURCE_DIR}"
                                             NB_BINARY_DIR="${PROJECT_BINARY_DIR}")
  # Nothing fuzzes a test: the clang tree leaves the fuzzers' coverage hooks out of test code,
  # which compiles a test unit 5 to 25 % faster there (the libraries keep them).
  if(NB_FUZZ)
    target_compile_options(${name} PRIVATE -fno-sanitize=fuzzer-no-link)
  endif()
  gtest_discover_tests(${name} DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${suite_LABEL})
  # `cmake --build DIR --target unit_tests` builds what `ctest -L unit` runs and nothing else.
  if(suite_LABEL STREQUAL "unit")
    if(NOT TARGET unit_tests)
      add_custom_target(unit_tests)
    endif()
    add_dependencies(unit_tests ${name})
  endif()
endfunction()
