#!/usr/bin/env bash
# tools/setup.sh — installs everything beamlet needs from Debian's packages (idempotent).
set -euo pipefail
PKGS="build-essential cmake ninja-build llvm-19-dev libgtest-dev libcli11-dev libspdlog-dev libfmt-dev
      zlib1g-dev libgmp-dev libpcre2-dev erlang-base erlang-runtime-tools erlang-crypto erlang-src
      erlang-eunit erlang-mnesia erlang-common-test rebar3 elixir
      nlohmann-json3-dev libexpat1-dev tmux"
missing=""
for p in $PKGS; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
