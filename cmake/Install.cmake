# The service around the binaries: the systemd unit and the configuration.
set(NB_SYSTEMD_UNIT_DIR "lib/systemd/system" CACHE STRING
    "Where the systemd units go (relative paths are under the install prefix)")
set(NB_CONFIG_DIR "/etc/numabalancer" CACHE PATH "Where numabalancerd reads config.toml")

install(FILES systemd/numabalancerd.service systemd/numabalancerd.socket
        DESTINATION ${NB_SYSTEMD_UNIT_DIR})

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

# Man pages, compressed as Debian and man-db expect them.
set(NB_MAN_PAGES numabalancerd.8 numabalancerctl.8 numabalancer.toml.5)
set(nb_compressed_pages "")
foreach(page IN LISTS NB_MAN_PAGES)
  string(REGEX MATCH "[0-9]$" section ${page})
  set(source ${PROJECT_SOURCE_DIR}/docs/man/${page})
  set(copy ${PROJECT_BINARY_DIR}/man/${page})
  add_custom_command(
    OUTPUT ${copy}.gz
    COMMAND ${CMAKE_COMMAND} -E copy ${source} ${copy}
    # -n leaves the name and time out, so that the same page always gives the same bytes.
    COMMAND gzip -9nf ${copy}
    DEPENDS ${source}
    COMMENT "Compressing man page ${page}"
    VERBATIM)
  list(APPEND nb_compressed_pages ${copy}.gz)
  install(FILES ${copy}.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section})
endforeach()
add_custom_target(man_pages ALL DEPENDS ${nb_compressed_pages})

install(FILES ${PROJECT_SOURCE_DIR}/packaging/numabalancerctl.bash-completion
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions
        RENAME numabalancerctl)

# monitoring/: Prometheus rules, their tests and the Grafana dashboard (monitoring/README.md).
install(FILES monitoring/README.md monitoring/rules.yml monitoring/alerts.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/numabalancer/monitoring)
install(FILES monitoring/dashboards/numabalancer.json
        DESTINATION ${CMAKE_INSTALL_DATADIR}/numabalancer/monitoring/dashboards)
install(FILES monitoring/tests/alerts_test.yml
        DESTINATION ${CMAKE_INSTALL_DATADIR}/numabalancer/monitoring/tests)
