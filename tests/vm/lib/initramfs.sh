# shellcheck shell=bash
# Builds the guest's initramfs from the current build: busybox, the rig's /init and scenarios,
# numabalancer's binaries, the workload, the bench programs and numactl's tools, each with the
# shared libraries ldd lists and the ELF loader. Sourced by run.sh.

# Copies one file to the same absolute path under the staging root, following symlinks.
initramfs_copy() {
  local root=$1 file=$2
  mkdir -p "$root$(dirname "$file")"
  cp -L "$file" "$root$file"
}

# Copies a dynamically linked program and everything the loader needs for it.
initramfs_add_program() {
  local root=$1 program=$2 dest=$3 lib
  mkdir -p "$root$(dirname "$dest")"
  cp -L "$program" "$root$dest"
  # Debug info would triple the image and the memory it takes from node 0.
  strip --strip-debug "$root$dest" 2>/dev/null || true
  # ldd lines: "libx.so => /path (0x…)", or the loader itself as "/lib64/ld-linux… (0x…)".
  for lib in $(ldd "$program" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'); do
    [[ -e "$root$lib" ]] || initramfs_copy "$root" "$lib"
  done
}

# initramfs_build SOURCE_DIR BUILD_DIR OUT_FILE: prints what it included on stderr.
initramfs_build() {
  local source=$1 build=$2 out=$3
  local root="$out.root"
  rm -rf "$root"
  mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,run,nb/bin,nb/scenarios}

  local busybox
  busybox=$(command -v busybox) || { echo "vm: busybox not found (package busybox-static)" >&2; return 1; }
  initramfs_add_program "$root" "$busybox" /bin/busybox
  local applet
  for applet in $(busybox --list); do
    [[ -e "$root/bin/$applet" ]] || ln -s busybox "$root/bin/$applet"
  done

  install -m 0755 "$source/tests/vm/guest/init" "$root/init"
  install -m 0644 "$source/tests/vm/guest/lib.sh" "$root/nb/lib.sh"
  install -m 0644 "$source/tests/vm/guest/scenarios/"*.sh "$root/nb/scenarios/"

  local included=() program
  for program in "$build/numabalancerd" "$build/numabalancerctl" \
    "$build"/tests/vm/nb_vm_*  "$build"/bench/bench_*; do
    [[ -x "$program" && -f "$program" ]] || continue
    initramfs_add_program "$root" "$program" "/nb/bin/$(basename "$program")"
    included+=("$(basename "$program")")
  done
  for program in migratepages numactl; do
    local path
    path=$(command -v "$program") || { echo "vm: $program not found (package numactl)" >&2; return 1; }
    initramfs_add_program "$root" "$path" "/nb/bin/$program"
    included+=("$program")
  done
  # The soak scenario runs tests/soak/soak.sh itself, which is bash and reads JSON with jq and
  # drops privileges with setpriv: none of them in busybox. They go under /nb/soak, on that
  # scenario's PATH only, so every other scenario keeps busybox's tools.
  mkdir -p "$root/nb/soak/bin"
  install -m 0755 "$source/tests/soak/soak.sh" "$root/nb/soak/soak.sh"
  for program in bash jq setpriv; do
    local path
    path=$(command -v "$program") || { echo "vm: $program not found (scripts/setup.sh --tests)" >&2; return 1; }
    initramfs_add_program "$root" "$path" "/nb/soak/bin/$program"
  done
  included+=(soak.sh bash jq setpriv)
  echo "vm: initramfs holds ${included[*]}" >&2

  (cd "$root" && find . -print0 | LC_ALL=C sort -z | cpio -o -0 -H newc --quiet -R 0:0) >"$out.tmp"
  mv "$out.tmp" "$out"
  rm -rf "$root"
}
