"""Where the time of `euchrelog check` goes, part by part, in microseconds a deal.

Not a test. Run it from a checkout (`pip install -e .`):

    python bench/profile.py                 # 0.5 MB of four-hand records, best of 7
    python bench/profile.py --megabytes 2 --repeat 9

It times, on the same games (as the generator writes them, and as a person types them:
tests/support/records.py `respell`), each part of what `check` does with a game of
notation, every part on inputs made beforehand, so that each is timed alone:

- splitting the text into games (:func:`~euchrelog.notation.split_games`);
- reading each game into the bulk entry's parts (:func:`~euchrelog.bulk.read_parts`), and of
  that the line loop with the grammar's line terminals (the same loop, given an assembler
  that keeps nothing) and the loop alone (every terminal taking every line); the rest is the
  builders of the lines and the source map;
- the models of what the game loop reads (:func:`~euchrelog.fast.loop_model`);
- the game loop (:class:`~euchrelog.fast._BulkReplay`), and of it each deal's replay
  (:func:`~euchrelog.fast.replay_parts`): the state of the deal, the acts before the play,
  the tricks, and the rest (the deal's cards checked once, its points and result);
- the whole of :func:`~euchrelog.check.check_lines`, whose rest is the checker's own work.

Times are CPU seconds of this process (``time.process_time``: the machine may be shared),
the best of ``--repeat`` runs, with what was made before the runs frozen out of the
collector's sight as the CLI does. A part timed alone is a little cheaper than inside the
whole (its data are warm), so the rests are estimates.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from euchrelog import bulk, fast
from euchrelog.check import check_lines
from euchrelog.engine import DealState
from euchrelog.notation import split_games
from euchrelog.notation.lines import LineTerminals, read_lines_into
from euchrelog.notation.reader import line_terminals, prepared

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import euchre_corpus, kind_corpus


def best(work: Callable[[], object], repeat: int) -> float:
    """The least CPU time of ``repeat`` runs of ``work``, in seconds."""
    least = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        work()
        least = min(least, time.process_time() - start)
    return least


class _Nothing:
    """An assembler that keeps nothing: what the line loop costs without the builders."""

    def __init__(self) -> None:
        self.pending: list[str] = []

    def line(self, *_: object) -> None:
        """Takes a line and keeps nothing of it."""

    def tag_line(self, *_: object) -> None:
        """Takes a tag line and keeps nothing of it."""


def _every_terminal(lines: LineTerminals) -> LineTerminals:
    """The line terminals, with each one taking every line: the loop without the grammar's
    regular expressions (each line's kind is the one its first character last had)."""
    loose = LineTerminals.__new__(LineTerminals)
    loose.kinds, loose.match, loose.tag = lines.kinds, lines.match, lines.tag
    loose.recent = dict(lines.recent)
    loose.terminal = cast(Any, dict.fromkeys(lines.kinds, lambda _text: True))
    loose.games = 0
    return loose


def budget(text: str, repeat: int) -> list[tuple[str, float]]:
    """The seconds of each part of checking ``text`` (see the module's docstring)."""
    chunks = list(split_games(io.StringIO(text)))
    reads = [bulk.read_parts(t, first) for first, t in chunks]
    if any(read is None for read in reads):
        raise SystemExit("a game the parts do not hold: profile records the parts reader takes")
    models = [fast.loop_model(read.game.form, read.plain) for read in reads
              if read is not None]
    games = [(model, read) for model, read in zip(models, reads, strict=True)
             if read is not None]
    deals: list[tuple[Any, ...]] = []
    for model, read in games:
        ruleset = fast._BulkReplay(model, read.parts, read.game.source, False,
                                   read.form_of).ruleset
        deals += [(ruleset, deal.number, deal.dealer, parts)
                  for deal, parts in zip(model.deals, read.parts, strict=True)
                  if parts.sheet is None and parts.up is not None]
    terminals = line_terminals()
    loose = _every_terminal(terminals)
    prepared_texts = [(prepared(t, first)[0], first) for first, t in chunks]

    def states() -> None:
        for ruleset, _, dealer, parts in deals:
            DealState(ruleset, dealer, hands=parts.hands, upcard=parts.up[0],
                      kitty=parts.up[1], extra=parts.extra and parts.extra[1])

    def acts() -> None:
        for ruleset, _, dealer, parts in deals:
            DealState(ruleset, dealer, hands=parts.hands, upcard=parts.up[0],
                      kitty=parts.up[1], extra=parts.extra and parts.extra[1]
                      ).run(parts.acts, ())

    def tricks() -> None:
        for ruleset, _, dealer, parts in deals:
            DealState(ruleset, dealer, hands=parts.hands, upcard=parts.up[0],
                      kitty=parts.up[1], extra=parts.extra and parts.extra[1]
                      ).run(parts.acts, parts.tricks)

    def replays() -> None:
        for ruleset, number, dealer, parts in deals:
            with contextlib.suppress(bulk.DeclineError):
                fast.replay_parts(ruleset, number, dealer, parts)

    timings: dict[str, Callable[[], object]] = {
        "split": lambda: list(split_games(io.StringIO(text))),
        "read": lambda: [bulk.read_parts(t, first) for first, t in chunks],
        "loop+terminals": lambda: [read_lines_into(t, terminals, _Nothing(), first)  # type: ignore[arg-type]
                                   for t, first in prepared_texts],
        "loop": lambda: [read_lines_into(t, loose, _Nothing(), first)  # type: ignore[arg-type]
                         for t, first in prepared_texts],
        "models": lambda: [fast.loop_model(read.game.form, read.plain) for _, read in games],
        "game loop": lambda: [fast._BulkReplay(model, read.parts, read.game.source, False,
                                               read.form_of).run() for model, read in games],
        "deals": replays,
        "state": states,
        "acts": acts,
        "tricks": tricks,
        "check": lambda: sum(r.deals for r in check_lines(io.StringIO(text))),
    }
    for work in timings.values():
        work()  # (warm: what is kept by line text, the rulesets' tables)
    gc.collect()
    gc.freeze()
    spent = {name: best(work, repeat) for name, work in timings.items()}
    gc.unfreeze()
    reading, replaying = spent["read"], spent["deals"]
    return [
        ("check_lines, all of it", spent["check"]),
        ("  split the text into games", spent["split"]),
        ("  read the games into parts", reading),
        ("    the line loop", spent["loop"]),
        ("    the grammar's line terminals", spent["loop+terminals"] - spent["loop"]),
        ("    the builders and the source map", reading - spent["loop+terminals"]),
        ("  the models the game loop reads", spent["models"]),
        ("  the game loop, deals and all", spent["game loop"]),
        ("    each deal's replay", replaying),
        ("      the state of the deal", spent["state"]),
        ("      the acts before the play", spent["acts"] - spent["state"]),
        ("      the tricks", spent["tricks"] - spent["acts"]),
        ("      the rest: cards, points, result", replaying - spent["tricks"]),
        ("    the rest of the loop", spent["game loop"] - replaying),
        ("  the rest of check", spent["check"] - spent["split"] - reading - spent["models"]
         - spent["game loop"]),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=0.5)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    text, _, deals = euchre_corpus(size)
    typed, typed_deals = kind_corpus(size, "hand-typed")
    columns = [("canonical", budget(text, args.repeat), deals),
               ("hand-typed", budget(typed, args.repeat), typed_deals)]
    print(f"{args.megabytes} MB of each kind, {deals} and {typed_deals} deals; CPU time, "
          f"best of {args.repeat} runs; us/deal")
    print(f"{'part':40}" + "".join(f"{name:>12}" for name, _, _ in columns))
    for i, (part, _) in enumerate(columns[0][1]):
        print(f"{part:40}" + "".join(f"{rows[i][1] / count * 1e6:12.1f}"
                                     for _, rows, count in columns))


if __name__ == "__main__":
    main()
