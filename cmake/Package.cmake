# The Debian package: `cpack -G DEB` in a build tree gives numabalancer_VERSION_ARCH.deb with
# everything cmake/Install.cmake installs under /usr, the example config as the conffile
# /etc/numabalancer/config.toml, and the maintainer scripts in packaging/debian.
set(NB_PACKAGE_MAINTAINER "numabalancer maintainers <root@localhost>" CACHE STRING
    "The Maintainer field of the .deb")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME numabalancer)
set(CPACK_PACKAGE_CONTACT ${NB_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "NUMA memory balancing daemon for bare-metal hosts")
set(CPACK_PACKAGE_DESCRIPTION
    "numabalancerd watches each NUMA node's memory read latency and bandwidth, decides which\n\
containers (cgroups) hold too much memory on an overloaded node, and moves their pages with\n\
move_pages(2) within a byte budget and a rate limit. numabalancerctl controls it over a\n\
Unix-socket admin API.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# With DESTDIR staging (below) CPack installs under this prefix instead.
set(CPACK_INSTALL_PREFIX /usr)
# The config lives at an absolute path (/etc); DESTDIR staging keeps it inside the package.
set(CPACK_SET_DESTDIR ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION admin)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# dpkg-shlibdeps turns the binaries' shared libraries into Depends (libnuma, libcgroup, spdlog,
# fmt, libstdc++, libc); postinst needs addgroup.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "systemd")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA
    ${PROJECT_SOURCE_DIR}/packaging/debian/conffiles ${PROJECT_SOURCE_DIR}/packaging/debian/postinst
    ${PROJECT_SOURCE_DIR}/packaging/debian/prerm ${PROJECT_SOURCE_DIR}/packaging/debian/postrm)
# Scripts 0755 and conffiles 0644 whatever the checkout's modes are.
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
