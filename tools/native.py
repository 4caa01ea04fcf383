"""Compile the engine's hot modules with mypyc and its kernels with Cython (the lists: core/native.py,
`MODULES` and `CYTHON`), or remove them.

    python -m tools.native build [--force] [--jobs N]   # nothing to do when the stamp matches
    python -m tools.native status                       # compiled / none / stale
    python -m tools.native clean                        # back to the pure-Python engine

The build removes what is on disk first (so a failed build leaves the pure-Python engine, never a mix),
type-checks and translates the modules to C in one group (they call each other natively), translates
the Cython kernels to C, compiles the C with gcc and writes the stamp core/native.py compares at every
start. It needs mypy, Cython and setuptools (requirements-native.txt) and a C compiler with Python's
headers; without them it says so and exits 1, and the pure-Python engine runs. docs/deployment.md,
"The compiled engine", says who runs it.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import json
import os
import shutil
import sys
import sysconfig
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from core import native


def parallel_compile(jobs: int) -> None:
    """Compile an extension's C files `jobs` at a time: setuptools compiles one extension's files one
    after the other, and the group is one extension (one C file per module with `multi_file`)."""
    from setuptools._distutils.ccompiler import CCompiler

    def compile_all(  # CCompiler.compile's signature
        self: CCompiler,
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, built = self._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = self._get_cc_args(pp_opts, debug, extra_preargs)

        def one(obj: str) -> None:
            source, ext = built[obj]
            self._compile(obj, source, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            list(pool.map(one, objects))
        return list(objects)

    CCompiler.compile = compile_all


def missing() -> str | None:
    """What the build lacks on this machine (a C compiler, Python's headers), checked before mypy's
    minute of work: a start without a compiler goes on at once with the pure-Python engine."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers (Python.h)"
    return None


def build(jobs: int, *, force: bool = False) -> int:
    native.STAMP.parent.mkdir(parents=True, exist_ok=True)
    with (native.STAMP.parent / "lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # two starts at once: the second finds the first's build
        return locked_build(jobs, force=force)


def locked_build(jobs: int, *, force: bool) -> int:
    if not force and native.fresh():
        print("compiled engine: up to date")
        return 0
    native.remove()
    lacking = missing()
    if lacking:
        print(f"compiled engine: not built, {lacking}; the pure-Python engine runs", file=sys.stderr)
        return 1
    began = time.perf_counter()
    try:
        from Cython.Build import cythonize
        from mypyc.build import mypycify
        from setuptools import Extension, setup
    except ImportError as exc:
        print(f"compiled engine: not built ({exc}); the pure-Python engine runs", file=sys.stderr)
        return 1
    target = native.STAMP.parent
    os.chdir(native.ROOT)
    parallel_compile(jobs)
    try:
        modules = mypycify(
            list(native.MODULES),
            opt_level="3",
            group_name=native.GROUP,
            target_dir=str(target),
            multi_file=True,
        )
        # The kernels' floats must be bitwise NumPy's: no fused multiply-add, no -ffast-math (-O2 after
        # Python's own -O3 wins; a later -ffp-contract too).
        kernels = [
            Extension(
                native.module_name(path),
                [path],
                extra_compile_args=["-O2", "-ffp-contract=off", "-fno-fast-math"],
            )
            for path in native.CYTHON
        ]
        modules += cythonize(  # type: ignore[no-untyped-call]  # Cython ships no annotations
            kernels, build_dir=str(target), quiet=True, language_level=3
        )
        with contextlib.redirect_stdout(sys.stderr if jobs < 0 else sys.stdout):
            setup(
                name=native.GROUP,
                packages=[],
                py_modules=[],
                ext_modules=modules,
                script_args=[
                    "--quiet",
                    "build_ext",
                    "--inplace",
                    "--build-temp",
                    str(target),
                    "-j",
                    str(jobs),
                ],
            )
    except (Exception, SystemExit) as exc:  # mypy's errors, a missing compiler: the sources run instead
        native.remove()
        print(f"compiled engine: build failed ({exc}); the pure-Python engine runs", file=sys.stderr)
        return 1
    stamp = native.stamp_of()
    native.STAMP.write_text(json.dumps(stamp, indent=1))
    if not native.fresh():
        native.remove()
        print("compiled engine: the build left other files than expected; removed", file=sys.stderr)
        return 1
    built = f"{len(native.MODULES)} modules and {len(native.CYTHON)} Cython kernels"
    print(f"compiled engine: {built} built in {time.perf_counter() - began:.0f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("build", "status", "clean"))
    parser.add_argument("--force", action="store_true", help="build even when the stamp matches")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel C compilations")
    options = parser.parse_args(argv)
    if options.command == "build":
        return build(options.jobs, force=options.force)
    if options.command == "clean":
        gone = native.remove()
        print(f"compiled engine: {len(gone)} files removed")
        for path in gone:
            print(f"  {path.relative_to(native.ROOT)}")
        return 0
    state = "compiled" if native.fresh() else "stale" if native.products() else "none"
    print(f"compiled engine: {state}")
    print(f"  mypyc: {len(native.MODULES)} modules (core/native.py, MODULES)")
    for source in native.CYTHON:
        print(f"  Cython: {source}")
    return 0 if state != "stale" else 1


if __name__ == "__main__":
    sys.exit(main())
