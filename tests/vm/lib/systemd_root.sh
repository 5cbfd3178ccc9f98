# shellcheck shell=bash
# The systemd guest's root (issue 35): a Debian minbase with systemd as PID 1, built once with
# mmdebstrap from the mirror the machine's apt already uses and cached in tests/vm/cache/ as a
# cpio archive; then, on every run, a small second archive with the tree's .deb, the guest tools
# and the checks, which the kernel unpacks over the first (an initramfs may be several cpio
# archives back to back). The package is installed inside the booted guest, by the checks, so
# that dpkg -i runs its maintainer scripts under a live systemd. Sourced by run.sh.

# What the root holds besides the package's own Depends: systemd as init, udev (systemd's device
# units, /dev/ttyS1 among them), kmod and procps as the issue's recipe says.
systemd_root_base_packages=(systemd systemd-sysv udev kmod procps)

# Bumped whenever the way the root is built changes, so that a cached root built the old way is
# not reused.
systemd_root_recipe=1

# systemd_root_depends DEB: the package names of the .deb's Depends, one per line (versions and
# alternatives dropped: the root is the release the package was built on, so its versions fit).
systemd_root_depends() {
  dpkg-deb -f "$1" Depends | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/[[:space:]]//g' | grep -v '^$' | sort -u
}

# systemd_root_fetch CACHE DEB: prints the cached root archive for DEB's Depends, building it
# first when it is missing. Fails, with the reason as its last stderr line, when mmdebstrap is
# missing or the mirror cannot be reached (run.sh turns that into a SKIP line).
systemd_root_fetch() {
  local cache=$1 deb=$2 codename uri packages key dir
  command -v mmdebstrap >/dev/null ||
    { echo "vm: mmdebstrap is missing (scripts/setup.sh --tests installs it)" >&2; return 1; }
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  [[ -n "$codename" ]] || { echo "vm: /etc/os-release names no VERSION_CODENAME" >&2; return 1; }
  packages=$( (printf '%s\n' "${systemd_root_base_packages[@]}"; systemd_root_depends "$deb") | sort -u | paste -sd, -)
  # The cache key: release, recipe and package list; the package's own files are not in it.
  key=$(echo "$codename $systemd_root_recipe $packages" | sha256sum | cut -c1-12)
  dir="$cache/systemd-root/$codename-$key"
  if [[ -s "$dir/root.cpio" ]]; then
    echo "$dir/root.cpio"
    return 0
  fi
  uri=$(kernel_mirror_uri "$codename")
  [[ -n "$uri" ]] ||
    { echo "vm: no Debian mirror for $codename/main in the machine's apt sources (apt-cache policy)" >&2; return 1; }
  echo "vm: building the systemd guest's root ($codename minbase + $packages; once, cached in $dir)" >&2
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial"
  local started=$SECONDS
  # Documentation, man pages and translations are half of a minbase and nothing in the guest
  # reads them; the options stay in the root's dpkg configuration, so dpkg -i of the package
  # inside the guest drops its man pages too.
  if ! nice -n 10 mmdebstrap --variant=minbase --include="$packages" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-exclude=/usr/share/man/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    "$codename" "$dir.partial/root" "$uri" >"$dir.partial/mmdebstrap.log" 2>&1; then
    tail -n 5 "$dir.partial/mmdebstrap.log" >&2
    echo "vm: mmdebstrap of $codename from $uri failed (log: $dir.partial/mmdebstrap.log)" >&2
    return 1
  fi
  systemd_root_prepare "$dir.partial/root"
  (cd "$dir.partial/root" && find . -print0 | LC_ALL=C sort -z | cpio -o -0 -H newc --quiet) \
    >"$dir.partial/root.cpio"
  echo "vm: systemd root built in $((SECONDS - started)) s: $(du -sm "$dir.partial/root" | cut -f1) MiB" >&2
  rm -rf "$dir.partial/root"
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  echo "$dir/root.cpio"
}

# systemd_root_prepare ROOT: what turns the minbase into the guest's root, done once at build
# time (the checks themselves come in the per-run archive).
systemd_root_prepare() {
  local root=$1
  # The kernel runs /init from an initramfs; systemd is PID 1 from there on, with the initramfs
  # as its root (no switch_root: there is no other disk).
  ln -sf sbin/init "$root/init"
  # A getty takes over any serial line it runs on and revokes other writers; the results go out
  # on ttyS1, so no getty may ever run there (the console's getty on ttyS0 is harmless).
  ln -sf /dev/null "$root/etc/systemd/system/serial-getty@ttyS1.service"
  # A fixed machine id: an empty one makes every boot a "first boot" (systemd-firstboot, preset
  # of all units), which costs boot time and is not what a host sees.
  echo 6e62766d73797374656d64726f6f7430 >"$root/etc/machine-id"
  # The journal in memory only: the root is a tmpfs anyway.
  mkdir -p "$root/etc/systemd/journald.conf.d"
  printf '[Journal]\nStorage=volatile\n' >"$root/etc/systemd/journald.conf.d/nb-guest.conf"
  echo nb-systemd >"$root/etc/hostname"
}

# systemd_overlay_build SOURCE_DIR BUILD_DIR DEB ROOT_CPIO OUT: the guest's initramfs, the cached
# root followed by the per-run archive (the .deb, the guest tools, guest/lib.sh, the checks and
# their units).
systemd_overlay_build() {
  local source=$1 build=$2 deb=$3 root_cpio=$4 out=$5
  local stage="$out.overlay"
  rm -rf "$stage"
  mkdir -p "$stage"/{nb/bin,etc/systemd/system/multi-user.target.wants,etc/systemd/system/sysinit.target.wants}
  install -m 0644 "$deb" "$stage/nb/numabalancer.deb"
  local program
  # The guest tools alone: the libraries they link (libnuma, libstdc++) are the package's own
  # Depends, so the root has them, of its own release; the host's copies are not mixed in.
  for program in "$build"/tests/vm/nb_vm_workload "$build"/tests/vm/nb_vm_json "$build"/tests/vm/nb_vm_timed; do
    [[ -x "$program" ]] || { echo "vm: $program is missing (build the tests)" >&2; return 1; }
    cp -L "$program" "$stage/nb/bin/"
    strip --strip-debug "$stage/nb/bin/$(basename "$program")" 2>/dev/null || true
  done
  install -m 0644 "$source/tests/vm/guest/lib.sh" "$stage/nb/lib.sh"
  install -m 0755 "$source/tests/vm/guest/systemd/checks.sh" "$stage/nb/systemd-checks.sh"
  install -m 0644 "$source/tests/vm/guest/systemd/nb-boot.service" \
    "$source/tests/vm/guest/systemd/nb-checks.service" "$stage/etc/systemd/system/"
  ln -s ../nb-boot.service "$stage/etc/systemd/system/sysinit.target.wants/nb-boot.service"
  ln -s ../nb-checks.service "$stage/etc/systemd/system/multi-user.target.wants/nb-checks.service"
  (cd "$stage" && find . -mindepth 1 -print0 | LC_ALL=C sort -z | cpio -o -0 -H newc --quiet -R 0:0) >"$out.overlay.cpio"
  cat "$root_cpio" "$out.overlay.cpio" >"$out.tmp"
  mv "$out.tmp" "$out"
  rm -rf "$stage" "$out.overlay.cpio"
}

# systemd_package_build BUILD_DIR: builds the tree's .deb with cpack (as scripts/package-check.sh
# does, into a directory of the rig's own) and prints its path.
systemd_package_build() {
  local build=$1 out="$1/tests/vm/package" debs
  cmake --build "$build" --target numabalancerd numabalancerctl man_pages >&2 || return 1
  rm -rf "$out"
  (cd "$build" && cpack -G DEB -B "$out" >&2) || return 1
  debs=("$out"/numabalancer_*.deb)
  [[ ${#debs[@]} -eq 1 && -f ${debs[0]} ]] || { echo "vm: cpack made no numabalancer_*.deb in $out" >&2; return 1; }
  echo "${debs[0]}"
}
