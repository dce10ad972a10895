"""The project's own quality gates: mypy --strict and ruff are clean, no private name
crosses a module's border, and the grammar ships inside the installed package."""

from __future__ import annotations

import ast
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


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _module_of(path: Path) -> tuple[str, list[str]]:
    """The dotted name of the module at ``path`` (under src/) and the package that holds its
    relative imports."""
    parts = list(path.relative_to(ROOT / "src").with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def private_crossings(text: str, module: str, package: list[str]) -> list[str]:
    """Each private name of another module of euchrelog that ``text``, the source of
    ``module`` (whose relative imports are from ``package``), uses: ``from x import _name``,
    or ``x._name`` where ``x`` is a name it imported from euchrelog (a module or a class)."""
    tree = ast.parse(text)
    found: list[str] = []
    imported: set[str] = set()
    """The names bound by an import from euchrelog."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:
                base = package[:len(package) - node.level + 1]
                source = ".".join([*base, *([node.module] if node.module else [])])
            if source != "euchrelog" and not source.startswith("euchrelog."):
                continue
            for alias in node.names:
                if _private(alias.name) and source != module:
                    found.append(f"{node.lineno}: from {source} import {alias.name}")
                imported.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            imported.update(alias.asname or alias.name.partition(".")[0] for alias in node.names
                            if alias.name.partition(".")[0] == "euchrelog")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in imported):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_no_private_name_crosses_a_module() -> None:
    """No module of euchrelog imports or reads another module's private name (``_x``): what
    two modules share is public, with its docstring (issue 40; 45 crossings at 72fdb3c)."""
    found = [f"{path.relative_to(ROOT)}:{crossing}"
             for path in sorted((ROOT / "src" / "euchrelog").rglob("*.py"))
             for crossing in private_crossings(path.read_text(encoding="utf-8"),
                                               *_module_of(path))]
    assert not found, "\n".join(found)


def test_the_private_name_scan_finds_each_form() -> None:
    """The scan of :func:`test_no_private_name_crosses_a_module` sees both forms, relative
    and absolute, and lets a module's own names, dunders and other packages' names be."""
    text = ("from . import lines\nfrom .patterns import _X, Y\nfrom ..loci import _Z as z\n"
            "import euchrelog.notation.lines as el\nfrom euchrelog import __version__\n"
            "from .assembly import _own\nfrom re import _pattern\n"
            "lines._a\nel._b\nY._c\nlines.__doc__\nre._d\n")
    found = private_crossings(text, "euchrelog.notation.assembly", ["euchrelog", "notation"])
    assert found == ["2: from euchrelog.notation.patterns import _X",
                     "3: from euchrelog.loci import _Z", "8: lines._a", "9: el._b", "10: Y._c"]


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
