#!/usr/bin/env bash
# benchmarks/fetch_packages.sh [FOLDER]: fetches the three public packages of docs/performance.md's
# "Real packages against problemtools" (issue 48) into FOLDER (default /tmp/real-packages), for
#   python benchmarks/package_speed.py FOLDER/excursion FOLDER/joinedsessions FOLDER/chaoticconstruction
# From github.com/mzuenni/kattis-export (GCPC 2021 and 2022, as their authors exported them); nothing
# of it is committed here. Needs git and network access to GitHub.
set -euo pipefail
into=${1:-/tmp/real-packages}
clone=$(mktemp -d)
trap 'rm -rf "$clone"' EXIT
git clone -q --depth 1 --filter=blob:none --sparse https://github.com/mzuenni/kattis-export "$clone"
git -C "$clone" sparse-checkout set gcpc2021/excursion gcpc2021/joinedsessions gcpc2022/chaoticconstruction
mkdir -p "$into"
for package in gcpc2021/excursion gcpc2021/joinedsessions gcpc2022/chaoticconstruction; do
    rm -rf "${into:?}/$(basename "$package")"
    cp -r "$clone/$package" "$into/"
    echo "fetched $into/$(basename "$package")"
done
