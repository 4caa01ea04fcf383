# Sourced by scripts/_venv.sh when .venv is missing: picks the interpreter that creates it.
# $PYTHON wins; else the first of python3.13, python3.12, python3.11, python3 that is 3.11 or newer.
# The probe is quiet: under pyenv, the shim of a version that is not selected exists but answers
# "command not found" and a paragraph of advice on stderr, a dozen lines for nothing. One line says
# what was chosen, or that nothing fits.
if [ -z "${PYTHON:-}" ]; then
  for candidate in python3.13 python3.12 python3.11 python3; do
    if command -v "$candidate" >/dev/null 2>&1 \
      && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; then
      PYTHON="$candidate"
      break
    fi
  done
fi
if [ -z "${PYTHON:-}" ]; then
  echo "Python 3.11 or newer is required (set PYTHON=/path/to/python3.11)." >&2
  exit 1
fi
echo "Creating .venv with $PYTHON ($("$PYTHON" --version 2>&1))."
