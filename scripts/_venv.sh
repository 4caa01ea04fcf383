# Shared by scripts/start and scripts/test: find Python 3.11+, create .venv, install the pinned
# requirements ($1) unless .venv already holds exactly them. Sourced, so it may `return` early.
#
# - A stamp in .venv (the hash of the requirements file, of the files it includes with -r, and of the
#   interpreter's version) says what was installed: a later start re-installs nothing and asks nothing
#   of the network when the pins did not change.
# - uv (pinned, from PyPI) installs the packages in parallel: it installs itself into .venv in a few
#   seconds, and pip installs everything instead when it cannot.
# - One line per step, so a newcomer sees what happens during the first minute.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
UV_VERSION="0.13.8"
requirements="$1"
if [ ! -x .venv/bin/python ]; then
  source scripts/_python.sh
  "$PYTHON" -m venv .venv
fi

_pins_of() {  # the file and, recursively, the files it includes with -r
  echo "$1"
  local included
  for included in $(sed -n 's/^-r[[:space:]]*//p' "$1"); do
    _pins_of "$(dirname "$1")/$included"
  done
}
_stamp_of() { echo ".venv/.installed-$(basename "$1" .txt)"; }
_hash_of() {
  { .venv/bin/python -c 'import sys; print(sys.version)'; for f in $(_pins_of "$1"); do cat "$f"; done; } \
    | sha256sum | cut -d' ' -f1
}

wanted=$(_hash_of "$requirements")
if [ -f "$(_stamp_of "$requirements")" ] && [ "$(cat "$(_stamp_of "$requirements")")" = "$wanted" ]; then
  return 0 2>/dev/null || exit 0
fi

count=0
for f in $(_pins_of "$requirements"); do
  count=$((count + $(grep -cE '^[A-Za-z0-9]' "$f" || true)))
done
if [ ! -x .venv/bin/uv ]; then
  echo "Installing uv $UV_VERSION into .venv…"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION" >/dev/null 2>&1 || true
fi
# The test requirements are compiled at install: the suite's workers and the bots it starts would each
# compile them again otherwise (scripts/test compiles the project itself).
compile=()
[ "$(basename "$requirements")" = "requirements-dev.txt" ] && compile=(--compile-bytecode)
if [ -x .venv/bin/uv ]; then
  echo "Installing $count packages with uv…"
  .venv/bin/uv pip install --quiet --python .venv/bin/python ${compile[@]+"${compile[@]}"} -r "$requirements"
else
  echo "Installing $count packages with pip…"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$requirements"
fi
for f in $(_pins_of "$requirements"); do  # what was installed satisfies every file it includes too
  _hash_of "$f" >"$(_stamp_of "$f")"
done
