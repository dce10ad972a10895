"""The build the suite runs on: pure Python by default, the compiled one (mypyc, in black's
way) where ``.ci/run`` asks for it with ``EUCHRELOG_EXPECT_COMPILED=1``."""

from __future__ import annotations

import importlib
import os
import tomllib
from pathlib import Path

import euchrelog

ROOT = Path(__file__).resolve().parents[1]


def _compiled_modules() -> list[str]:
    """The modules pyproject.toml's build hook compiles, as dotted names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    hook = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]
    assert hook["enable-by-default"] is False  # the pure wheel is the default
    names = []
    for path in hook["include"]:
        parts = Path(path.removeprefix("/src/")).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def test_every_module_of_the_hook_is_of_the_one_build() -> None:
    """Each module the hook compiles is an extension module in the compiled build and
    Python source in the pure one: never a mixture."""
    names = _compiled_modules()
    assert names
    for name in names:
        path = importlib.import_module(name).__file__ or ""
        assert path.endswith(".py") is not euchrelog.COMPILED, (name, path)


def test_the_build_is_the_one_asked_for() -> None:
    """``.ci/run`` runs the suite twice; the second run must really be the compiled build."""
    if os.environ.get("EUCHRELOG_EXPECT_COMPILED") == "1":
        assert euchrelog.COMPILED


def test_the_version_names_the_build() -> None:
    """``euchrelog --version`` says which build it is, as black's does."""
    from click.testing import CliRunner

    from euchrelog.cli import main

    out = CliRunner().invoke(main, ["--version"]).output
    assert euchrelog.__version__ in out
    assert ("(compiled)" if euchrelog.COMPILED else "(pure Python)") in out
