"""The configuration of the commands: ``[tool.euchrelog]`` in a ``pyproject.toml``, or a
file ``euchrelog.toml`` (the same keys at its top), found as ruff and black find theirs.

The search starts in the folder of the sources (their common folder; the working folder
for standard input) and goes up to the root of the file system: the first folder with an
``euchrelog.toml``, or a ``pyproject.toml`` that has a ``[tool.euchrelog]`` table, gives
the configuration (``euchrelog.toml`` first, in one folder). ``--config FILE`` names the file
instead and ``--isolated`` reads none.

A key is the long name of an option (``select``, ``max-file-size``), and stands for the
option where the command line does not give it. The keys at the top apply to every command
that has the option (:data:`SHARED`); a table of a command's name (``[tool.euchrelog.check]``,
``[tool.euchrelog.analyze]``) holds any option of that command (but those that name one run's
files, :data:`NOT_KEYS`). Two keys are the configuration's own, at the top: ``exclude``,
the files that a folder's search leaves out, and ``per-file-ignores``, the codes not
reported in the files that match a pattern. A pattern is matched against the path of a
file from the folder of the configuration (``*`` matches any characters, ``/`` too); a
pattern without ``/`` is matched against the file's name, and one that ends in ``/``
against every file under that folder.

>>> fnmatch_path("old/2019/a.euchre", "old/"), fnmatch_path("x/a.draft.euchre", "*.draft.*")
(True, True)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from fnmatch import fnmatch
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

from ..spelling import did_you_mean

FILES = ("euchrelog.toml", "pyproject.toml")
"""The files that may hold the configuration, in the order they are looked for in a folder."""

SHARED = ("select", "ignore", "max-file-size", "max-line-length", "jobs", "color", "quiet")
"""The options a key at the top of the configuration sets, for every command that has one."""
OWN = ("exclude", "per-file-ignores")
"""The keys of the configuration that are no option."""
NOT_KEYS = frozenset({"config", "isolated", "help", "output", "out-dir", "in-place", "force",
                      "resume", "title", "event", "round", "table", "date", "site", "player",
                      "diff", "check"})
"""The options a configuration cannot set: those of one run (its output, its files, the
game being recorded, a question asked of the files)."""


class ConfigError(click.UsageError):
    """A configuration that cannot be read: a usage error (exit status 2)."""


def fnmatch_path(path: str, pattern: str) -> bool:
    """Whether a path (with ``/``, from the configuration's folder) matches a pattern of
    ``exclude`` or ``per-file-ignores``."""
    if pattern.endswith("/"):
        return path.startswith(pattern) or f"/{pattern}" in f"/{path}"
    if "/" not in pattern:
        return fnmatch(path.rsplit("/", 1)[-1], pattern)
    return fnmatch(path, pattern.removeprefix("./"))


@dataclass
class Config:
    """A configuration as read: where from, its keys at the top, its tables by command."""

    path: Path | None = None
    """The file it was read from (``None``: no file)."""
    top: dict[str, Any] = field(default_factory=dict)
    commands: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def root(self) -> Path:
        """The folder that the patterns of ``exclude`` and ``per-file-ignores`` start from."""
        return self.path.parent if self.path is not None else Path.cwd()

    def relative(self, path: str) -> str | None:
        """A file's path from :attr:`root`, with ``/``; ``None`` for one outside it."""
        try:
            return Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def excluded(self, path: str) -> bool:
        """Whether the search of a folder leaves the file out (``exclude``)."""
        where = self.relative(path)
        return where is not None and any(fnmatch_path(where, p)
                                         for p in self.top.get("exclude", ()))

    def ignored(self, path: str) -> tuple[str, ...]:
        """The codes not reported in the file (``per-file-ignores``)."""
        where = self.relative(path)
        if where is None:
            return ()
        table: dict[str, list[str]] = self.top.get("per-file-ignores", {})
        return tuple(code for pattern, codes in table.items() if fnmatch_path(where, pattern)
                     for code in codes)

    def defaults(self, command: str) -> dict[str, Any]:
        """The options the configuration sets for ``command``, by long name."""
        out = {k: v for k, v in self.top.items() if k not in OWN}
        out.update(self.commands.get(command, {}))
        return out


def find_config(start: Path) -> Path | None:
    """The file of the configuration for the files under ``start``, if there is one."""
    folder = start.resolve()
    for here in (folder, *folder.parents):
        for name in FILES:
            candidate = here / name
            if candidate.is_file() and (name != "pyproject.toml" or _has_table(candidate)):
                return candidate
    return None


def _has_table(pyproject: Path) -> bool:
    """Whether a ``pyproject.toml`` has a ``[tool.euchrelog]`` table (one that cannot be
    read is the configuration, so that its fault is said)."""
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return "[tool.euchrelog" in pyproject.read_bytes().decode("utf-8", "replace")
    return isinstance(data.get("tool"), dict) and "euchrelog" in data["tool"]


def load_config(path: Path, commands: Iterable[str], command: str, keys: set[str]) -> Config:
    """Reads the configuration in ``path`` for ``command`` (one of ``commands``), which
    takes ``keys`` (the tables of the other commands are read when they run).

    :raises ConfigError: for a file that cannot be read, or a key or value it cannot take.
    """
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ConfigError(f"cannot read the configuration {path}: {exc.strerror}") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not TOML: {exc}") from None
    table = "tool.euchrelog" if path.name == "pyproject.toml" else ""
    if table:
        data = data.get("tool", {}).get("euchrelog", {})
    where = f"{path} [{table}]" if table else str(path)
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: not a table of keys")
    names = set(commands)
    config = Config(path)
    for key, value in data.items():
        if key in names and isinstance(value, dict):
            config.commands[key] = (_table(value, keys, f"{path} [{table}.{key}]".replace(
                "[.", "[")) if key == command
                                    else dict(value))
        elif key in OWN:
            config.top[key] = _own(key, value, where)
        elif key in SHARED:
            config.top[key] = value
        else:
            also = (f" (it goes in the table [{command}])" if key in keys
                    else did_you_mean(key, [*SHARED, *OWN, *names]))
            raise ConfigError(f"{where}: unknown key {key!r}{also}")
    return config


def _table(values: dict[str, Any], allowed: set[str], where: str) -> dict[str, Any]:
    """A command's table, its keys checked."""
    for key in values:
        if key not in allowed:
            raise ConfigError(f"{where}: {key!r} is no option of the command that a "
                              f"configuration can set{did_you_mean(key, allowed)}")
    return dict(values)


def _own(key: str, value: Any, where: str) -> Any:
    """The value of ``exclude`` (a list of patterns) or ``per-file-ignores`` (a table of
    patterns to lists of codes), checked."""
    def patterns(items: Any) -> list[str]:
        if not isinstance(items, list) or not all(isinstance(p, str) for p in items):
            raise ConfigError(f"{where}: {key} takes a list of strings")
        return items

    if key == "exclude":
        return patterns(value)
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: per-file-ignores takes a table of patterns to codes")
    return {pattern: patterns(codes) for pattern, codes in value.items()}


def option_keys(command: click.Command) -> set[str]:
    """The keys of a command's table: its options' long names, but :data:`NOT_KEYS`."""
    keys = set()
    for param in command.params:
        if isinstance(param, click.Option):
            for name in (*param.opts, *param.secondary_opts):
                if name.startswith("--") and name[2:] not in NOT_KEYS:
                    keys.add(name[2:])
    return keys


def apply(ctx: click.Context, config: Config) -> None:
    """Sets each option of the command that the command line leaves at its default to
    the configuration's value."""
    assert ctx.command.name is not None
    values = config.defaults(ctx.command.name)
    for param in ctx.command.params:
        if not isinstance(param, click.Option) or param.name is None:
            continue
        names = [n[2:] for n in param.opts if n.startswith("--")]
        negative = [n[2:] for n in param.secondary_opts if n.startswith("--")]
        given = [n for n in (*names, *negative) if n in values]
        if not given or ctx.get_parameter_source(param.name) is not ParameterSource.DEFAULT:
            continue
        value = values[given[0]]
        if given[0] in negative:  # --no-dd = true sets --dd off
            value = not value
        if param.multiple and isinstance(value, str):
            value = [value]
        try:
            ctx.params[param.name] = param.process_value(ctx, value)
        except click.BadParameter as exc:
            raise ConfigError(f"{config.path}: {given[0]} = {value!r}: "
                              f"{exc.format_message()}") from None


def sources_folder(sources: Iterable[str]) -> Path:
    """Where the search for a configuration starts: the folder the sources share."""
    folders = [Path.cwd() if s == "-" else (Path(s) if Path(s).is_dir() else Path(s).parent)
               for s in sources]
    if not folders:
        return Path.cwd()
    resolved = [f.resolve() for f in folders]
    common = resolved[0]
    while not all(f == common or f.is_relative_to(common) for f in resolved):
        common = common.parent
    return common
