# The service around the binaries: the systemd unit and the configuration.
set(NB_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
    "Where the systemd unit goes (relative paths are under the install prefix)")
set(NB_CONFIG_DIR "/etc/numabalancer" CACHE PATH "Where numabalancerd reads config.toml")

install(FILES systemd/numabalancerd.service DESTINATION ${NB_SYSTEMD_UNIT_DIR})

set(NB_EXAMPLE_CONFIG ${PROJECT_SOURCE_DIR}/config.toml.example)
if(EXISTS ${NB_EXAMPLE_CONFIG})
  install(FILES ${NB_EXAMPLE_CONFIG} DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The example becomes the live config only when there is none: an operator's edits survive
  # every reinstall.
  install(CODE "
    set(nb_config \"\$ENV{DESTDIR}${NB_CONFIG_DIR}/config.toml\")
    if(EXISTS \"\${nb_config}\")
      message(STATUS \"Keeping existing: \${nb_config}\")
    else()
      file(MAKE_DIRECTORY \"\$ENV{DESTDIR}${NB_CONFIG_DIR}\")
      file(COPY_FILE \"${NB_EXAMPLE_CONFIG}\" \"\${nb_config}\")
      message(STATUS \"Installing: \${nb_config}\")
    endif()
  ")
endif()
