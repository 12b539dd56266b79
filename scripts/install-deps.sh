#!/usr/bin/env bash
# Installs the Debian packages in scripts/packages.txt (as root, or with sudo).
set -euo pipefail
cd "$(dirname "$0")"
mapfile -t pkgs < <(grep -v '^\s*#' packages.txt | grep -v '^\s*$')
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
