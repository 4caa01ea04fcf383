# Shared by scripts/start and scripts/test: find Python 3.11+, create .venv, install pinned requirements.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  source scripts/_python.sh
  "$PYTHON" -m venv .venv
fi
# --no-compile: the modules a run imports are compiled when first imported (scripts/test keeps the caches);
# compiling every file of every package at install time cost about 12 s on a fresh clone.
.venv/bin/python -m pip install --quiet --no-compile --disable-pip-version-check -r "$1"
