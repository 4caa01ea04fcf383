"""The suite runs on the engine's compiled modules when they match their sources, on the sources otherwise
(`ENGINE_PURE=1`: always on the sources). Run before any test module or conftest imports the engine."""

from core import native

native.ensure_fresh()
