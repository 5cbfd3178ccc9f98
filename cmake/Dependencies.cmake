# Every dependency is a Debian package installed by scripts/setup.sh.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(NUMA REQUIRED IMPORTED_TARGET numa)
pkg_check_modules(LIBCGROUP REQUIRED IMPORTED_TARGET libcgroup)
find_package(fmt CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(tomlplusplus CONFIG REQUIRED)
find_package(nlohmann_json CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)

# Debian's libasio-dev ships standalone Asio as headers only, without a CMake package.
find_path(ASIO_INCLUDE_DIR asio.hpp REQUIRED)
add_library(nb_asio INTERFACE)
target_include_directories(nb_asio SYSTEM INTERFACE ${ASIO_INCLUDE_DIR})
# Asio picks aligned_alloc or operator new per translation unit, from whether libstdc++'s config
# was seen first; two units choosing differently free one's handler memory with the other's
# deallocator (valgrind: "Mismatched free() / delete"). One choice for every unit.
target_compile_definitions(nb_asio INTERFACE ASIO_STANDALONE ASIO_NO_DEPRECATED
                                             ASIO_DISABLE_STD_ALIGNED_ALLOC)
target_link_libraries(nb_asio INTERFACE Threads::Threads)
add_library(nb::asio ALIAS nb_asio)

if(NB_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
if(NB_BUILD_BENCH)
  find_package(benchmark CONFIG REQUIRED)
endif()
