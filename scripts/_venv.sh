# Shared by scripts/start and scripts/test: find Python 3.11+, create .venv, install pinned requirements.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  source scripts/_python.sh
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$1"
