# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# arm64-guest.sh - the arm64 guest of scripts/lib/guest.sh: a small arm64
# Linux under qemu-system-aarch64 (TCG) booting Debian's arm64 kernel, for
# scripts/arm64-vm.sh, scripts/muxsim.sh and scripts/arm64-validate.sh.
# Sourced by bash scripts; it sets AG_ARCH=arm64 and sources guest.sh, whose
# head describes the ag_ functions and AG_ variables.
AG_ARCH=arm64
# shellcheck source=guest.sh
. "$(dirname "${BASH_SOURCE[0]}")/guest.sh"
