#!/usr/bin/env bash
# update.sh re-vendors three.js from the npm registry into this folder:
#   inspect/web/third_party/update.sh            # the version in README.md
#   inspect/web/third_party/update.sh 0.188.0    # another version
# It needs npm (Node) and tar; nothing else. Check the page afterwards
# (go test ./cmd/scene-run -run TestBrowser) and commit the files with
# the README's version line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
version="${1:-$(sed -n 's/^- version: \([0-9.]*\)$/\1/p' "$here/README.md")}"
[ -n "$version" ] || { echo "update.sh: no version given and none in README.md" >&2; exit 2; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "three@$version" >/dev/null && tar xzf "three-$version.tgz")
pkg="$tmp/package"
mkdir -p "$here/three"
cp "$pkg/build/three.module.js" "$pkg/build/three.core.js" "$here/three/"
cp "$pkg/examples/jsm/controls/OrbitControls.js" "$pkg/examples/jsm/controls/TransformControls.js" "$here/three/"
cp "$pkg/LICENSE" "$here/three/LICENSE"
sed -i "s/^- version: .*/- version: $version/" "$here/README.md"
echo "vendored three@$version into $here/three"
