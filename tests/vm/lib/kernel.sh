# shellcheck shell=bash
# Fetches the guest kernel into the cache once: Debian's own kernel, the package that
# linux-image-amd64 depends on, downloaded with apt-get and unpacked with dpkg -x. Nothing is
# installed on the host. Sourced by run.sh; kernel_fetch prints the image to boot.

# The generic image is XZ-compressed; under TCG its decompression costs seconds per boot, so the
# ELF vmlinux inside it is extracted once and booted through its PVH entry point.
kernel_extract_vmlinux() {
  local vmlinuz=$1 out=$2 offset
  # The XZ stream's magic bytes; the first offset whose payload decompresses to an ELF file wins.
  for offset in $(LC_ALL=C grep -obaP '\xfd7zXZ\x00' "$vmlinuz" | cut -d: -f1); do
    tail -c +$((offset + 1)) "$vmlinuz" | xz -dc 2>/dev/null >"$out.tmp" || true
    if [[ $(head -c 4 "$out.tmp" | od -An -c | tr -d ' ') == '177ELF' ]]; then
      mv "$out.tmp" "$out"
      return 0
    fi
  done
  rm -f "$out.tmp"
  return 1
}

kernel_package() {
  apt-cache depends linux-image-amd64 2>/dev/null |
    awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

# Prints the path of the image to boot (vmlinux, or the compressed vmlinuz when extraction is not
# possible). NB_VM_KERNEL=/path/to/image skips the download, e.g. on an offline machine.
kernel_fetch() {
  local cache=$1 package dir vmlinuz
  if [[ -n "${NB_VM_KERNEL:-}" ]]; then
    [[ -r "$NB_VM_KERNEL" ]] || { echo "vm: NB_VM_KERNEL=$NB_VM_KERNEL is not readable" >&2; return 1; }
    echo "$NB_VM_KERNEL"
    return 0
  fi
  package=$(kernel_package)
  if [[ -z "$package" ]]; then
    # A fresh machine may have no package lists yet; reading them installs nothing.
    echo "vm: no package lists for linux-image-amd64, running apt-get update" >&2
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq >&2 || true
    package=$(kernel_package)
  fi
  if [[ -z "$package" ]]; then
    echo "vm: cannot tell which kernel package linux-image-amd64 depends on (apt-cache depends)" >&2
    return 1
  fi

  dir="$cache/kernel/$package"
  if [[ -s "$dir/vmlinux" ]]; then
    echo "$dir/vmlinux"
    return 0
  fi
  if [[ -s "$dir/vmlinuz" ]]; then
    echo "$dir/vmlinuz"
    return 0
  fi

  echo "vm: fetching $package (once; cached in $dir)" >&2
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial/download"
  local sandbox=()
  # As root, apt drops to the _apt user, who cannot write into this directory.
  [[ $(id -u) -eq 0 ]] && sandbox=(-o APT::Sandbox::User=root)
  if ! (cd "$dir.partial/download" && apt-get download -q "${sandbox[@]}" "$package" >&2); then
    echo "vm: apt-get download $package failed" >&2
    return 1
  fi
  dpkg -x "$dir.partial/download/"*.deb "$dir.partial/root"
  vmlinuz=$(find "$dir.partial/root/boot" -name 'vmlinuz-*' | head -n 1)
  if [[ -z "$vmlinuz" ]]; then
    echo "vm: $package holds no boot/vmlinuz-*" >&2
    return 1
  fi
  cp "$vmlinuz" "$dir.partial/vmlinuz"
  # Only the image is needed: the rig uses no kernel modules, and the rest is ~400 MB.
  rm -rf "$dir.partial/root" "$dir.partial/download"
  if ! kernel_extract_vmlinux "$dir.partial/vmlinuz" "$dir.partial/vmlinux"; then
    echo "vm: no ELF vmlinux inside $(basename "$vmlinuz"); booting the compressed image" >&2
  fi
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  if [[ -s "$dir/vmlinux" ]]; then
    echo "$dir/vmlinux"
  else
    echo "$dir/vmlinuz"
  fi
}
