# shellcheck shell=bash
# Fetches a guest kernel into the cache once: the package that linux-image-amd64 depends on,
# from the machine's own release (stable, 6.1 on Debian 12) or from its backports suite (6.12),
# downloaded with apt-get and unpacked with dpkg -x. Nothing is installed on the host and the
# machine's apt configuration is not changed: backports is read through a sources list and
# package lists of its own under the cache. Sourced by run.sh; kernel_fetch prints the image.

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

# apt options for the suite being fetched: none for the machine's own, a private sources list and
# lists directory for backports (set up by kernel_backports_apt).
kernel_apt_options=()

kernel_package() {
  apt-cache "${kernel_apt_options[@]}" depends linux-image-amd64 2>/dev/null |
    awk '$1 == "Depends:" && $2 ~ /^linux-image-/ { print $2; exit }'
}

# The URI of the machine's configured Debian mirror for its release, as apt itself reports it
# (one-line and deb822 sources alike); empty when none is configured.
kernel_mirror_uri() {
  local codename=$1
  apt-cache policy 2>/dev/null |
    awk -v suite="$codename/main" '$3 == suite && $4 == "amd64" { print $2; exit }'
}

# Points kernel_apt_options at a private sources list for CODENAME-backports on the machine's
# own mirror, and reads that suite's package lists into DIR. Changes nothing under /etc/apt.
kernel_backports_apt() {
  local dir codename uri
  # apt reads relative Dir:: paths against /etc/apt, not the working directory.
  dir=$(mkdir -p "$1" && cd "$1" && pwd)
  codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
  if [[ -z "$codename" ]]; then
    echo "vm: /etc/os-release names no VERSION_CODENAME, so no backports suite" >&2
    return 1
  fi
  uri=$(kernel_mirror_uri "$codename")
  if [[ -z "$uri" ]]; then
    echo "vm: no Debian mirror for $codename/main in the machine's apt sources (apt-cache policy)" >&2
    return 1
  fi
  mkdir -p "$dir/lists/partial"
  echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $codename-backports main" \
    >"$dir/sources.list"
  kernel_apt_options=(-o "Dir::Etc::sourcelist=$dir/sources.list" -o Dir::Etc::sourceparts=-
    -o "Dir::State::Lists=$dir/lists" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache=)
  # As root, apt drops to the _apt user, who cannot write into the cache.
  [[ $(id -u) -eq 0 ]] && kernel_apt_options+=(-o APT::Sandbox::User=root)
  if ! apt-get "${kernel_apt_options[@]}" update -qq >&2; then
    echo "vm: apt-get update of $codename-backports from the machine's mirror failed" >&2
    return 1
  fi
}

# kernel_fetch CACHE SUITE: prints the path of the image to boot (vmlinux, or the compressed
# vmlinuz when extraction is not possible). SUITE is `stable` (the machine's release) or
# `backports`. NB_VM_KERNEL=/path (stable) and NB_VM_KERNEL_BACKPORTS=/path skip the download,
# e.g. on an offline machine.
kernel_fetch() {
  local cache=$1 suite=$2 package dir vmlinuz override
  kernel_apt_options=()
  override=${NB_VM_KERNEL:-}
  [[ $suite == backports ]] && override=${NB_VM_KERNEL_BACKPORTS:-}
  if [[ -n "$override" ]]; then
    [[ -r "$override" ]] || { echo "vm: the $suite kernel $override is not readable" >&2; return 1; }
    echo "$override"
    return 0
  fi
  if [[ $suite == backports ]]; then
    kernel_backports_apt "$cache/apt-backports" || return 1
  fi
  package=$(kernel_package)
  if [[ -z "$package" && $suite == stable ]]; then
    # A fresh machine may have no package lists yet; reading them installs nothing.
    echo "vm: no package lists for linux-image-amd64, running apt-get update" >&2
    local sudo=""
    [[ $(id -u) -ne 0 ]] && sudo="sudo"
    $sudo apt-get update -qq >&2 || true
    package=$(kernel_package)
  fi
  if [[ -z "$package" ]]; then
    echo "vm: cannot tell which kernel package linux-image-amd64 depends on in $suite (apt-cache depends)" >&2
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

  echo "vm: fetching $package from $suite (once; cached in $dir)" >&2
  rm -rf "$dir.partial"
  mkdir -p "$dir.partial/download"
  local sandbox=()
  [[ $(id -u) -eq 0 ]] && sandbox=(-o APT::Sandbox::User=root)
  if ! (cd "$dir.partial/download" &&
    apt-get download -q "${kernel_apt_options[@]}" "${sandbox[@]}" "$package" >&2); then
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
  # 6.12's image is zstd, not XZ: it has no vmlinux to extract and boots as the bzImage.
  if ! kernel_extract_vmlinux "$dir.partial/vmlinuz" "$dir.partial/vmlinux"; then
    echo "vm: no XZ-packed ELF vmlinux inside $(basename "$vmlinuz"); booting the compressed image" >&2
  fi
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
  if [[ -s "$dir/vmlinux" ]]; then
    echo "$dir/vmlinux"
  else
    echo "$dir/vmlinuz"
  fi
}

# The kernel's version as result lines name it (6.1, 6.12), from the package's name or, for an
# image given by path, its version string.
kernel_label() {
  local image=$1 version
  version=$(basename "$(dirname "$image")")
  if [[ ! $version =~ ^linux-image-([0-9]+\.[0-9]+) ]]; then
    version=$(strings -n 8 "$image" 2>/dev/null | grep -m 1 -oE '^[0-9]+\.[0-9]+\.[0-9]+' || true)
    [[ $version =~ ^([0-9]+\.[0-9]+) ]] || { echo unknown; return; }
  fi
  echo "${BASH_REMATCH[1]}"
}
