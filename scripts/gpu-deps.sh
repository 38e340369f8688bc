#!/usr/bin/env bash
# Prepares .gpu-deps/: Debian 12's simdjson, toml++, CLI11, nlohmann-json, Catch2, ISA-L and xxHash,
# unpacked (no install), for a GPU machine that has torch and CUDA but no package registry.
# Run it here (it downloads with apt-get); carry .gpu-deps to the GPU machine (it is
# git-ignored); scripts/gpu-build.sh there finds it. Symlinks are replaced by copies, since
# some transfer tools drop links. See docs/gpu.md.
#
#   bash scripts/gpu-deps.sh          # .gpu-deps
#   bash scripts/gpu-deps.sh --perf   # also .perf: Debian's perf and the libraries it loads, for
#                                     # gpu-bench.sh's profile part (exclude it: .git/info/exclude)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
dest=.gpu-deps
packages=(libsimdjson-dev libsimdjson14 libcli11-dev nlohmann-json3-dev libtomlplusplus-dev
          libtomlplusplus3 catch2 libisal-dev libisal2 libxxhash-dev)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download "${packages[@]}" >/dev/null 2>&1) || {
  echo "gpu-deps: apt-get download failed (needs Debian 12's package lists: apt-get update)" >&2
  exit 1
}
rm -rf "$dest"
for deb in "$tmp"/*.deb; do dpkg -x "$deb" "$dest"; done
# Links become plain files (the .so symlinks) so the folder survives any copy.
find "$dest" -type l | while read -r link; do
  target=$(readlink -f "$link")
  rm "$link"
  if [[ -f "$target" ]]; then cp "$target" "$link"; fi
done
rm -rf "$dest/usr/share/doc" "$dest/usr/share/man"
echo "gpu-deps: $(du -sh "$dest" | cut -f1) in $dest (${#packages[@]} packages)"

[[ "${1:-}" == "--perf" ]] || exit 0
perf_tmp=$(mktemp -d)
(cd "$perf_tmp" && apt-get download linux-perf libbabeltrace1 libdw1 libelf1 libnuma1 libopencsd1 \
  libperl5.36 libpython3.11 libslang2 libunwind8 libcap2 libtraceevent1 \
  libglib2.0-0 libpcre2-8-0 libexpat1 libuuid1 libcrypt1 libbz2-1.0 >/dev/null 2>&1) || {
  echo "gpu-deps: apt-get download of linux-perf failed" >&2
  exit 1
}
mkdir -p "$perf_tmp/root" && for deb in "$perf_tmp"/*.deb; do dpkg -x "$deb" "$perf_tmp/root"; done
rm -rf .perf && mkdir -p .perf/lib && cp "$perf_tmp/root/usr/bin/perf" .perf/perf
libs="$perf_tmp/root/usr/lib/x86_64-linux-gnu:$perf_tmp/root/lib/x86_64-linux-gnu"
LD_LIBRARY_PATH=$libs ldd .perf/perf | awk -v d="$perf_tmp" '$3 ~ d {print $3}' | xargs -r cp -L -t .perf/lib
rm -rf "$perf_tmp"
echo "gpu-deps: perf in .perf ($(du -sh .perf | cut -f1))"
