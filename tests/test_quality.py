"""The project's own quality gates: mypy --strict and ruff are clean, and the grammar
ships inside the installed package."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from importlib import resources
from pathlib import Path

import pytest

import euchrelog

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> list[str]:
    if shutil.which(name) is None and not (Path(sys.executable).parent / name).exists():
        pytest.skip(f"{name} is not installed (pip install '.[test]')")
    return [sys.executable, "-m", name]


def test_mypy_strict_is_clean() -> None:
    result = subprocess.run([*_tool("mypy"), "--strict", "src/euchrelog", "tests"], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean() -> None:
    result = subprocess.run([*_tool("ruff"), "check", "src", "tests", "bench", "fuzz"], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_module_compares_finding_codes() -> None:
    """A finding code's policy is a column of the findings table: no module tests a code,
    a tuple of codes or a prefix of one (an emit site names its code, and nothing else)."""
    test = re.compile(r"""(==|!=|\bin \(|\.has\(|startswith\() ?["'][A-Z][0-9]{1,3}["']""")
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path in sorted((ROOT / "src" / "euchrelog").rglob("*"))
             if path.suffix in (".py", ".js")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if test.search(line)]
    assert not found, "\n".join(found)


def test_grammar_ships_in_the_installed_package() -> None:
    installed = Path(euchrelog.__file__).resolve().parent
    if installed == ROOT / "src" / "euchrelog":
        pytest.skip("an editable install reads grammar/ from the checkout")
    packaged = resources.files("euchrelog") / "grammar" / "euchre.lark"
    assert packaged.is_file()
    assert packaged.read_text(encoding="utf-8") == (ROOT / "grammar" / "euchre.lark").read_text(
        encoding="utf-8")


def test_the_suite_runs_in_parallel_with_a_quick_subset(pytestconfig: pytest.Config) -> None:
    """``python -m pytest`` runs on every core, and ``-m "not slow"`` leaves out the slow
    tests."""
    assert "-n auto" in " ".join(pytestconfig.getini("addopts"))
    assert any(line.startswith("slow:") for line in pytestconfig.getini("markers"))


def test_property_tests_are_marked_slow(request: pytest.FixtureRequest) -> None:
    properties = [item for item in request.session.items
                  if getattr(getattr(item, "obj", None), "is_hypothesis_test", False)]
    if not properties:
        pytest.skip("no property test collected in this run")
    assert all(item.get_closest_marker("slow") for item in properties)


def test_the_sdist_and_wheel_ship_the_license_and_one_version(tmp_path: Path) -> None:
    subprocess.run([*_tool("hatchling"), "build", "-d", str(tmp_path)], cwd=ROOT,
                   capture_output=True, text=True, check=True)
    version = euchrelog.__version__
    with tarfile.open(tmp_path / f"euchrelog-{version}.tar.gz") as sdist:
        names = {name.split("/", 1)[1] for name in sdist.getnames() if "/" in name}
    assert {"LICENSE", "CHANGELOG.md", "README.md", "pyproject.toml"} <= names
    with zipfile.ZipFile(tmp_path / f"euchrelog-{version}-py3-none-any.whl") as wheel:
        info = f"euchrelog-{version}.dist-info"
        assert f"{info}/licenses/LICENSE" in wheel.namelist()
        assert wheel.read("euchrelog/docs/findings.md") == (ROOT / "docs" / "findings.md"
                                                            ).read_bytes()  # for explain
        templates = ROOT / "src" / "euchrelog" / "present" / "templates"
        for path in templates.rglob("*"):  # every page's template, for the pages
            if path.is_file():
                name = f"euchrelog/present/{path.relative_to(templates.parent)}"
                assert wheel.read(name) == path.read_bytes(), name
        metadata = wheel.read(f"{info}/METADATA").decode("utf-8")
    assert f"Version: {version}\n" in metadata
    assert "License-Expression: MIT\n" in metadata
    assert "Classifier: Programming Language :: Python :: 3.11\n" in metadata
    assert "Project-URL: Documentation, " in metadata
    assert f"## [{version}]" in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
