#!/bin/sh
# Interpreters for bench/bench_startup.py --python: a commit's tree, with boardstate installed
# as a user gets it (README: `pip install .`) and as a developer's editable install maps it.
#
#   sh bench/startup_venvs.sh COMMIT NAME [DEPS_VENV]
#
# makes /tmp/startup-NAME (a `git archive` of COMMIT), /tmp/startup-NAME-user (the packages
# copied into site-packages, with their entry points, by setuptools' install: what pip does
# for this setup.cfg) and /tmp/startup-NAME-dev (the editable install's finder of DEPS_VENV,
# pointed at the tree).  Both take the dependencies from DEPS_VENV (default /tmp/venv, an
# editable install of this checkout) through a .pth line, so the two differ only in how
# boardstate is found.
set -e
COMMIT=$1
NAME=$2
DEPS=${3:-/tmp/venv}
TREE=/tmp/startup-$NAME
PY=$(readlink -f "$DEPS/bin/python")
SITE=$("$DEPS/bin/python" -c "import sysconfig; print(sysconfig.get_path('purelib'))")
VERSION=$("$DEPS/bin/python" -c "import sys; print(f'python{sys.version_info[0]}.{sys.version_info[1]}')")
HERE=$(git -C "$(dirname "$0")" rev-parse --show-toplevel)

rm -rf "$TREE" "$TREE-user" "$TREE-dev" "$TREE-build"
mkdir "$TREE"
git -C "$HERE" archive "$COMMIT" | tar -x -C "$TREE"

for kind in user dev; do
    "$PY" -m venv "$TREE-$kind"
    echo "$SITE" >"$TREE-$kind/lib/$VERSION/site-packages/zz_deps.pth"
done

cp -r "$TREE" "$TREE-build"
(cd "$TREE-build" && "$TREE-user/bin/python" -c "from setuptools import setup; setup()" -q \
    install --single-version-externally-managed --record "$TREE-build/installed.txt" >/dev/null)

FINDER=$(ls "$SITE"/__editable___boardstate_[0-9]*_finder.py)
sed "s#$HERE#$TREE#g; s/__editable___boardstate_[0-9_]*_finder/__editable___startup_finder/g" \
    "$FINDER" >"$TREE-dev/lib/$VERSION/site-packages/__editable___startup_finder.py"
echo "import __editable___startup_finder; __editable___startup_finder.install()" \
    >"$TREE-dev/lib/$VERSION/site-packages/__editable__.startup.pth"

for kind in user dev; do
    (cd /tmp && "$TREE-$kind/bin/python" -c "import boardstate; print(boardstate.__file__)")
done
