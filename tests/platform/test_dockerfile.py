"""deploy/Dockerfile's engine stage copies everything `python -m tools.native build` reads, so the image's
engine is compiled: without pyproject.toml, mypy (which mypyc runs first) lacks the pydantic plugin
named there, refuses the engine's models and the build falls back to the interpreted engine. The image
is not built by the suite (no Docker daemon in CI); this reads the file."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def stages() -> dict[str, list[list[str]]]:
    """Each stage's COPY instructions (their words), by the stage's name ("" for the last, unnamed)."""
    found: dict[str, list[list[str]]] = {}
    name = None
    for line in (ROOT / "deploy" / "Dockerfile").read_text().splitlines():
        words = line.split()
        if words[:1] == ["FROM"]:
            name = words[3] if len(words) > 3 and words[2].upper() == "AS" else ""
            found[name] = []
        elif words[:1] == ["COPY"] and name is not None:
            found[name].append(words[1:])
    return found


def test_the_engine_stage_copies_what_the_build_reads() -> None:
    copied = {source for words in stages()["engine"] for source in words[:-1]}
    wanted = {
        "pyproject.toml",
        "requirements.txt",
        "requirements-native.txt",
        "core",
        "engine",
        "tools/native.py",
    }
    assert wanted <= copied, wanted - copied


def test_the_bots_image_takes_the_compiled_engine_and_its_stamp() -> None:
    taken = [words for words in stages()[""] if words[0] == "--from=engine"]
    assert ["--from=engine", "/app/engine", "engine"] in taken
    assert ["--from=engine", "/app/build/native/stamp.json", "build/native/stamp.json"] in taken
    assert any(words[1].startswith("/app/engine_native__mypyc.") for words in taken)
