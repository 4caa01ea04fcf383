"""Scripts that print figures (`python -m benchmarks.<name>`); not run as tests. They measure the engine's
compiled modules when they match their sources, the sources otherwise (`ENGINE_PURE=1`: always the
sources, core/native.py)."""

from core import native

native.ensure_fresh()
