#!/usr/bin/env bash
# Install the Debian packages flange needs to build, when they are missing.
# Safe to run repeatedly: it does nothing when everything is present.
#   scripts/install-deps.sh           what the build and the tests need (the tests of
#                                     the filter blocks compare with numpy/scipy, those
#                                     of HDF5 tables read them with h5py)
#   scripts/install-deps.sh --bench   also the benchmark's Python peer (make bench)
#   scripts/install-deps.sh --fuzz    also clang and its libFuzzer runtime (make fuzz)
set -eu
pkgs="build-essential cmake pkg-config libsundials-dev libsuitesparse-dev libplplot-dev plplot-driver-cairo libmatio-dev libhdf5-dev libzip-dev libminizip-dev libxml2-dev zlib1g-dev libxml2-utils zip unzip libopenmpi-dev openmpi-bin python3 python3-numpy python3-scipy python3-h5py python3-distributed"
case "${1:-}" in
  --bench) pkgs="$pkgs python3 python3-numpy python3-scipy" ;;
  --fuzz) pkgs="$pkgs clang libclang-rt-14-dev python3" ;;
esac
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "flange: installing missing Debian packages:$missing"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO=sudo; else
    echo "flange: need root (or sudo) to install:$missing" >&2; exit 1
  fi
else
  SUDO=""
fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists when the packages cannot be found in them.
if ! apt-cache show $missing >/dev/null 2>&1; then
  $SUDO apt-get update -qq
fi
$SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
echo "flange: dependencies installed"
