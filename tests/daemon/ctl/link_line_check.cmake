# Checks the link command of one executable for libraries it must not link:
#   cmake -DBINARY_DIR=<build> -DTARGET=numabalancerctl -DFORBIDDEN=spdlog,toml,numa -P this
# numabalancerctl is an admin client: it links the wire library, not the daemon's config
# (toml++, spdlog) or the actuator (libnuma). Reads what the generator wrote, Ninja or Makefiles.

if(EXISTS "${BINARY_DIR}/build.ninja")
  file(READ "${BINARY_DIR}/build.ninja" ninja)
  string(REGEX MATCH "\nbuild ${TARGET}:[^\n]*\n([ ][^\n]*\n)*" block "${ninja}")
  string(REGEX MATCH "\n  LINK_LIBRARIES = [^\n]*" libraries "${block}")
elseif(EXISTS "${BINARY_DIR}/CMakeFiles/${TARGET}.dir/link.txt")
  file(READ "${BINARY_DIR}/CMakeFiles/${TARGET}.dir/link.txt" libraries)
endif()
if(NOT libraries)
  message(FATAL_ERROR "no link command for ${TARGET} under ${BINARY_DIR}")
endif()
message(STATUS "${TARGET} links:${libraries}")

string(REPLACE "," ";" FORBIDDEN "${FORBIDDEN}")
foreach(library IN LISTS FORBIDDEN)
  # A library file (libNAME.so, libNAME.a, with a version suffix or not) or -lNAME; the project's
  # own libnumabalancer_*.a do not count as libnuma.
  string(REGEX MATCH "lib${library}[a-z+]*\\.(so|a)[^ ]*" file_name "${libraries}")
  string(REGEX MATCH "(^| )-l${library}( |$)" flag "${libraries}")
  if(file_name OR flag)
    message(FATAL_ERROR "${TARGET} links ${library}: ${file_name}${flag}")
  endif()
endforeach()
