#!/usr/bin/env bash
# The collector's shared libraries export only their API (collector/exports.map,
# collector/preload/exports.map): a std:: template instance exported from them would be bound in
# place of the trainer's and torch's own copies. Usage: LIB ALLOWED_REGEX [LIB ALLOWED_REGEX ...]
set -euo pipefail
command -v nm >/dev/null || { echo "nm not found: skipped"; exit 77; }
status=0
while (($# >= 2)); do
  lib=$1 allowed=$2
  shift 2
  # Defined dynamic symbols, minus the linker's own section markers.
  symbols=$(nm -D --defined-only "$lib" | awk '{ print $3 }' | grep -Ev '^(__bss_start|_edata|_end)$' || true)
  [[ -n "$symbols" ]] || { echo "$lib: exports nothing"; status=1; continue; }
  extra=$(grep -Ev "$allowed" <<<"$symbols" || true)
  if [[ -n "$extra" ]]; then
    echo "$lib exports symbols outside its API:"
    sed 's/^/  /' <<<"$extra"
    status=1
  fi
done
exit $status
