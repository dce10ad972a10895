"""Benchmark: `euchrelog check` beside python-chess's PGN reader and pokerkit's PHH replay.

Not a test: nothing in the test suite depends on timing. Run it with the peers installed
(`pip install '.[bench]'`):

    python bench/run.py                    # 1.5 MB of each format, best of 3 runs
    python bench/run.py --megabytes 5 --repeat 5
    python bench/run.py --jobs 40          # also: the CLI with --jobs 1 and 2 on 40 MB
    python bench/run.py --memory 1024      # also: peak RSS of the CLI on a 1024 MB file
    python bench/run.py --score-memory 400 # only: peak RSS of `score` on an event of 400
                                           # tables x 8 rounds, and of 100 tables

Every corpus is generated here, reproducibly (fixed seeds), to the same byte size: random
legal four-hand euchre games (euchrelog's own generator) in notation and in JSON Lines,
random legal chess games written as PGN, and random no-limit hold'em hands written as PHH.
Each reader then validates its corpus fully: euchrelog parses and replays every deal;
python-chess's `read_game` checks every move; pokerkit loads each hand history and replays
every state. Each reader runs --repeat times, interleaved, and the best run counts. The
other variants are measured too, on smaller corpora, without peers.
"""

from __future__ import annotations

import argparse
import functools
import gc
import io
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import euchrelog
from euchrelog.check import check_json_lines, check_lines
from euchrelog.generate import random_game, ruleset_for
from euchrelog.models import Game
from euchrelog.notation import read_games
from euchrelog.notation.jsonio import game_to_json
from euchrelog.notation.writer import dumps_game
from euchrelog.rules import Options, Ruleset, find_variant

VARIANTS = ("four-hand", "cutthroat", "three-hand", "ghost", "two-hand")
ROOT = Path(__file__).resolve().parent.parent
ONE_GAME = ROOT / "samples" / "valid" / "four-hand-set.euchre"
"""The one-game file whose check start-up is measured (a clean game of 13 deals)."""


def euchre_corpus(size: int, seed: int = 1,
                  ruleset: Ruleset | None = None) -> tuple[str, str, int]:
    """Notation and JSON Lines of the same games, at least ``size`` bytes of notation."""
    rng = random.Random(seed)
    texts: list[str] = []
    lines: list[str] = []
    deals = 0
    total = 0
    while total < size:
        game = random_game(random.Random(rng.random()), ruleset)
        text = dumps_game(game)
        texts.append(text)
        lines.append(game_to_json(game) + "\n")
        deals += len(game.deals)
        total += len(text) + 1
    return "\n".join(texts), "".join(lines), deals


SEAT_TAGS = ("North", "East", "South", "West")
"""The players' tags the generator writes (the event sheets name them N E S W)."""


def event_corpus(tables: int, rounds: int = 8, seed: int = 5) -> tuple[str, int]:
    """A progressive event as one file: ``tables`` tables of four players for ``rounds``
    rounds of 8 deals, every sheet a full record, the players drawn anew each round. The
    deals repeat 40 games of the generator under other names (each game is still a
    different game: its players differ)."""
    from euchrelog.models import Tag

    rng = random.Random(seed)
    ruleset = ruleset_for(deals=8)
    templates = [random_game(random.Random(rng.random()), ruleset) for _ in range(40)]
    players = [f"Player {k}" for k in range(4 * tables)]
    texts: list[str] = []
    deals = 0
    for r in range(1, rounds + 1):
        rng.shuffle(players)
        for t in range(1, tables + 1):
            game = templates[(r * tables + t) % len(templates)]
            seated = players[4 * (t - 1):4 * t]
            head = {"Event": "Bench Progressive", "Format": "progressive", "Round": str(r),
                    "Table": str(t)}
            head.update(zip(("N", "E", "S", "W"), seated, strict=True))
            tags = [Tag(name=k, value=v) for k, v in head.items()]
            kept = [g for g in game.tags if g.name not in head and g.name not in SEAT_TAGS]
            texts.append(dumps_game(game.model_copy(update={"tags": (*tags, *kept)})))
            deals += len(game.deals)
    return "\n".join(texts), deals


def _commented(text: str, rng: random.Random) -> str:
    """One comment in a game, on the first trick line, as a scorer writes one."""
    return text.replace("\n  1. ", "\n  # a long first trick\n  1. ", 1)


def kind_corpus(size: int, kind: str, seed: int = 7) -> tuple[str, int]:
    """Notation of at least ``size`` bytes of one kind of record a person writes: a level
    of detail of the generator, a game with one comment, a hand-typed game (other case and
    spacing, comments at line ends: tests/support/records.py), a hand-typed game with one
    slip of the pen (tests/support/slips.py: a seat letter, a card, a trick line, a figure),
    or the bundled valid samples."""
    if kind == "samples":
        texts = [p.read_text(encoding="utf-8")
                 for p in sorted((ROOT / "samples" / "valid").glob("*.euchre"))]
        one = "\n".join(texts)
        deals = sum(r.deals for r in check_lines(io.StringIO(one)))
        copies = max(1, size // len(one) + 1)
        return "\n".join([one] * copies), deals * copies
    sys.path.insert(0, str(ROOT / "tests"))
    from support.records import respell
    from support.slips import slips

    rng = random.Random(seed)
    detail = kind if kind in ("play-only", "score-sheet", "unknown-cards") else "full"
    texts: list[str] = []
    deals = total = 0
    while total < size:
        game = random_game(random.Random(rng.random()), detail=detail)  # type: ignore[arg-type]
        text = dumps_game(game)
        if kind == "one comment":
            text = _commented(text, rng)
        elif kind == "hand-typed":
            text = respell(text, rng)
        elif kind == "one slip":
            made = list(slips(text))
            text = respell(rng.choice(made).text if made else text, rng)
        texts.append(text)
        deals += len(game.deals)
        total += len(text) + 1
    return "\n".join(texts), deals


KINDS = ("canonical", "one comment", "hand-typed", "one slip", "play-only", "score-sheet",
         "unknown-cards", "samples")
"""The kinds of four-hand record the benchmark measures beside python-chess."""


def pgn_corpus(size: int, seed: int = 1) -> tuple[str, int]:
    """Random legal chess games as PGN, at least ``size`` bytes."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out: list[str] = []
    total = games = 0
    while total < size:
        board = chess.Board()
        for _ in range(rng.randint(40, 120)):
            moves = list(board.legal_moves)
            if not moves or board.is_game_over():
                break
            board.push(rng.choice(moves))
        game = chess.pgn.Game.from_board(board)
        game.headers["Event"] = f"Bench {games}"
        text = str(game) + "\n\n"
        out.append(text)
        total += len(text)
        games += 1
    return "".join(out), games


def phh_corpus(size: int, seed: int = 1) -> tuple[list[str], int]:
    """Random no-limit hold'em hands as PHH texts, at least ``size`` bytes in all."""
    from pokerkit import Automation, HandHistory, NoLimitTexasHoldem

    rng = random.Random(seed)
    automations = (Automation.ANTE_POSTING, Automation.BET_COLLECTION,
                   Automation.BLIND_OR_STRADDLE_POSTING, Automation.CARD_BURNING,
                   Automation.HOLE_CARDS_SHOWING_OR_MUCKING, Automation.HAND_KILLING,
                   Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    game = NoLimitTexasHoldem(automations, True, 0, (1, 2), 2)
    out: list[str] = []
    total = 0
    while total < size:
        state = game((200,) * 6, 6)
        while state.status:
            if state.can_deal_hole():
                state.deal_hole()
            elif state.can_deal_board():
                state.deal_board()
            else:
                choice = rng.random()
                if choice < 0.15 and state.can_fold():
                    state.fold()
                elif choice < 0.3 and state.can_complete_bet_or_raise_to():
                    assert state.min_completion_betting_or_raising_to_amount is not None
                    state.complete_bet_or_raise_to(
                        state.min_completion_betting_or_raising_to_amount)
                else:
                    state.check_or_call()
        text = HandHistory.from_game_state(game, state).dumps()
        out.append(text)
        total += len(text)
    return out, len(out)


def run_euchre(text: str) -> int:
    return sum(r.deals for r in check_lines(io.StringIO(text)))


def run_jsonl(text: str) -> int:
    return sum(r.deals for r in check_json_lines(io.StringIO(text)))


def run_rewrite(text: str, write: Callable[[Game], str]) -> int:
    """What ``convert`` and ``fmt`` do with notation: read every game and write it out
    (``write`` is :func:`game_to_json` for ``convert --to jsonl``, :func:`dumps_game` for
    ``fmt``)."""
    deals = 0
    for item in read_games(io.StringIO(text)):
        if item.parsed is not None:
            write(item.parsed.game)
            deals += len(item.parsed.game.deals)
    return deals


def run_pgn(text: str) -> int:
    import chess.pgn

    stream = io.StringIO(text)
    games = 0
    while chess.pgn.read_game(stream) is not None:
        games += 1
    return games


def run_phh(texts: list[str]) -> int:
    from pokerkit import HandHistory

    hands = 0
    for text in texts:
        for _ in HandHistory.loads(text):
            pass
        hands += 1
    return hands


@dataclass
class Reader:
    """One reader of one corpus, and its best run so far."""

    name: str
    work: Callable[[], int]
    nbytes: int
    unit: str
    seconds: float = float("inf")
    count: int = 0

    def run(self) -> None:
        start = time.perf_counter()
        count = self.work()
        seconds = time.perf_counter() - start
        if seconds < self.seconds:
            self.seconds, self.count = seconds, count

    @property
    def speed(self) -> float:
        """MB/s of the best run."""
        return self.nbytes / self.seconds / 1e6

    def row(self) -> str:
        return (f"{self.name:34} {self.speed:8.3f} {self.count / self.seconds:10.0f} "
                f"{self.unit}/s")


def measure(readers: list[Reader], repeat: int) -> None:
    """Runs every reader ``repeat`` times, interleaved, keeping each one's best run.

    As the CLI freezes what its start-up made (:func:`gc.freeze`), so that the collector
    does not scan it again and again, what was made before the runs (the corpora, every
    reader's modules) is frozen first: every reader, the peers too, runs so.
    """
    gc.collect()
    gc.freeze()
    for _ in range(repeat):
        for reader in readers:
            reader.run()


def _build() -> str:
    return "compiled (mypyc)" if euchrelog.COMPILED else "pure Python"


def child(argv: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user and system) and peak RSS (MB, the largest process)
    of one run of ``argv``, its output thrown away."""
    code = ("import resource, subprocess, sys, time;"
            "t = time.perf_counter();"
            "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False);"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN);"
            "print(time.perf_counter() - t, u.ru_utime + u.ru_stime, u.ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, *argv], capture_output=True,
                         text=True, check=True).stdout.split()
    return float(out[0]), float(out[1]), int(out[2]) / 1024


def cli(args: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB, the largest process) of one `euchrelog` run."""
    wall, _, rss = child([sys.executable, "-m", "euchrelog", *args])
    return wall, rss


PGN_COMMAND = ("import sys, chess.pgn\n"
               "with open(sys.argv[1], encoding='utf-8') as f:\n"
               "    while chess.pgn.read_game(f) is not None:\n"
               "        pass\n")
"""python-chess as a command: read (and so check) every game of a PGN file."""


def as_commands(megabytes: float, repeat: int) -> None:
    """``euchrelog check`` as a command on a file of ``megabytes`` beside python-chess
    reading a PGN file of the same size as a command, and the start-up of each (``check``
    of an empty file, ``import chess.pgn``): CPU seconds, the best of ``repeat`` runs,
    interleaved."""
    print(f"euchrelog {euchrelog.__version__}, {_build()} build")
    _compile_bytecode()
    size = int(megabytes * 1_000_000)
    euchre, _, _ = euchre_corpus(size)
    pgn, _ = pgn_corpus(size)
    with tempfile.TemporaryDirectory() as tmp:
        record, games, empty = Path(tmp) / "big.euchre", Path(tmp) / "big.pgn", \
            Path(tmp) / "empty.euchre"
        record.write_text(euchre, encoding="utf-8")
        games.write_text(pgn, encoding="utf-8")
        empty.write_text("", encoding="utf-8")
        python = sys.executable
        runs = {
            "check as a command": [python, "-m", "euchrelog", "check", "-q", "--jobs", "1",
                                   str(record)],
            "python-chess as a command": [python, "-c", PGN_COMMAND, str(games)],
            "start-up: check of an empty file": [python, "-m", "euchrelog", "check", "-q",
                                                 str(empty)],
            "start-up: check of a one-game file": [python, "-m", "euchrelog", "check", "-q",
                                                   str(ONE_GAME)],
            "start-up: import chess.pgn": [python, "-c", "import chess.pgn"],
        }
        best = dict.fromkeys(runs, float("inf"))
        for _ in range(repeat):
            for name, argv in runs.items():
                best[name] = min(best[name], child(argv)[1])
    print(f"\nas commands, {megabytes} MB each, CPU seconds (best of {repeat}):")
    for name, seconds in best.items():
        print(f"{name:34} {seconds:8.3f}")
    ratio = best["python-chess as a command"] / best["check as a command"]
    print(f"check vs python-chess as commands: {ratio:.1f}x (target 6x)")
    start = best["start-up: check of an empty file"] / best["start-up: import chess.pgn"]
    print(f"start-up, check vs import chess.pgn: {start:.2f} (target at most 1)")
    one = best["start-up: check of a one-game file"] / best["start-up: import chess.pgn"]
    print(f"start-up, check of a one-game file vs import chess.pgn: {one:.2f} "
          "(target at most 1)")


def _compile_bytecode() -> None:
    """Compiles euchrelog's modules to bytecode, as an install does (pip compiles the
    modules of the packages it installs; python-chess's are): an editable install run with
    PYTHONDONTWRITEBYTECODE set, as on the development machines, would otherwise compile
    every module from its source at each start of the command."""
    import compileall

    package = Path(euchrelog.__file__).parent
    if not compileall.compile_dir(package, quiet=1):
        print(f"(could not compile the bytecode of {package}: each command compiles it)",
              file=sys.stderr)


def write_repeated(path: Path, text: str, megabytes: float) -> int:
    """Writes ``text`` over and over to ``path`` until it holds ``megabytes``; returns the
    bytes written."""
    data = (text.rstrip("\n") + "\n\n").encode()
    want = int(megabytes * 1_000_000)
    written = 0
    with path.open("wb") as out:
        while written < want:
            out.write(data)
            written += len(data)
    return written


def score_memory(tables: int) -> None:
    """Peak RSS of `euchrelog score` on an event of ``tables`` tables x 8 rounds, and on
    one of a quarter as many tables, to see whether it grows with the event."""
    with tempfile.TemporaryDirectory() as tmp:
        for count in (max(1, tables // 4), tables):
            text, deals = event_corpus(count)
            path = Path(tmp) / f"event-{count}.euchre"
            path.write_text(text, encoding="utf-8")
            seconds, rss = cli(["score", "-q", str(path)])
            print(f"peak RSS of `euchrelog score` on {count} tables x 8 rounds "
                  f"({count * 8} games, {deals} deals, {len(text) / 1e6:.1f} MB): "
                  f"{rss:.0f} MB ({seconds:.0f} s, {deals / seconds:.0f} deals/s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=1.5,
                        help="size of each corpus (default 1.5)")
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each reader; the best counts (default 3)")
    parser.add_argument("--jobs", type=float, default=0, metavar="MB",
                        help="also time the CLI with --jobs 1 and 2 on a file of MB megabytes")
    parser.add_argument("--memory", type=float, default=0, metavar="MB",
                        help="also measure the CLI's peak RSS on a file of MB megabytes")
    parser.add_argument("--command", type=float, default=0, metavar="MB",
                        help="only time `check` and python-chess as commands on files of MB "
                             "megabytes, and the start-up of each")
    parser.add_argument("--score-memory", type=int, default=0, metavar="TABLES",
                        help="only measure the peak RSS of `euchrelog score` on a progressive "
                             "event of TABLES tables x 8 rounds (and of a quarter as many)")
    args = parser.parse_args()
    if args.score_memory:
        score_memory(args.score_memory)
        return
    if args.command:
        as_commands(args.command, args.repeat)
        return
    size = int(args.megabytes * 1_000_000)
    print(f"generating corpora of {args.megabytes} MB ...", file=sys.stderr)
    print(f"euchrelog {euchrelog.__version__}, {_build()} build")
    euchre, jsonl, _ = euchre_corpus(size)
    pgn, _ = pgn_corpus(size)
    phh, _ = phh_corpus(size)
    readers = [
        Reader("euchrelog check (notation)", lambda: run_euchre(euchre),
               len(euchre.encode()), "deals"),
        Reader("euchrelog check (JSON Lines)", lambda: run_jsonl(jsonl),
               len(jsonl.encode()), "deals"),
        Reader("python-chess read_game", lambda: run_pgn(pgn), len(pgn.encode()), "games"),
        Reader("pokerkit PHH load+replay", lambda: run_phh(phh),
               sum(len(t.encode()) for t in phh), "hands"),
    ]
    measure(readers, args.repeat)
    print(f"{'reader':34} {'MB/s':>8} {'items/s':>10}")
    for reader in readers:
        print(reader.row())
    notation, json_lines, chess_reader, _ = readers
    print(f"\nnotation vs python-chess: {notation.speed / chess_reader.speed:.1f}x "
          f"(target 10x)")
    print(f"JSON Lines vs notation:   {json_lines.speed / notation.speed:.1f}x (target 3x)")

    print("\nevery kind of record a person writes (four-hand, a third of the size):")
    kinds = []
    for kind in KINDS:
        text, _ = kind_corpus(size // 3, kind)
        kinds.append(Reader(kind, functools.partial(run_euchre, text), len(text.encode()),
                            "deals"))
    measure(kinds, args.repeat)
    for reader in kinds:
        print(f"{reader.row()}  {reader.speed / chess_reader.speed:5.1f}x python-chess")

    print("\nconvert and fmt (reading and writing, no replay), a third of the size:")
    commands = []
    for kind in ("canonical", "hand-typed"):
        text, _ = kind_corpus(size // 3, kind)
        for name, write in (("convert", game_to_json), ("fmt", dumps_game)):
            commands.append(Reader(f"{name} ({kind})", functools.partial(run_rewrite, text, write),
                                   len(text.encode()), "deals"))
    measure(commands, args.repeat)
    for reader in commands:
        print(f"{reader.row()}  {reader.speed / chess_reader.speed:5.1f}x python-chess")

    print("\nevery variant (full records, a third of the size, no peers):")
    others = []
    for name in VARIANTS:
        variant = find_variant(name)
        ruleset = Ruleset(variant, Options.defaults(variant))
        text, lines, _ = euchre_corpus(size // 3, ruleset=ruleset)
        others.append(Reader(f"{name} (notation)", functools.partial(run_euchre, text),
                             len(text.encode()), "deals"))
        others.append(Reader(f"{name} (JSON Lines)", functools.partial(run_jsonl, lines),
                             len(lines.encode()), "deals"))
    measure(others, args.repeat)
    for reader in others:
        print(reader.row())

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.euchre"
        path.write_text(euchre, encoding="utf-8")
        _, rss = cli(["check", "-q", "-j", "1", str(path)])
        print(f"\npeak RSS of `euchrelog check` on {len(euchre) / 1e6:.1f} MB: {rss:.0f} MB")
        if args.jobs:
            big = Path(tmp) / "jobs.euchre"
            nbytes = write_repeated(big, euchre, args.jobs)
            runs: dict[str, list[float]] = {"1": [], "2": []}
            for _ in range(args.repeat):
                for jobs, times in runs.items():
                    times.append(cli(["check", "-q", "-j", jobs, str(big)])[0])
            one, two = min(runs["1"]), min(runs["2"])
            print(f"`euchrelog check` on {nbytes / 1e6:.0f} MB ({os.cpu_count()} cores): "
                  f"--jobs 1 {one:.2f} s, --jobs 2 {two:.2f} s: {one / two:.2f}x")
        if args.memory:
            huge = Path(tmp) / "memory.euchre"
            nbytes = write_repeated(huge, euchre, args.memory)
            seconds, rss = cli(["check", "-q", "-j", "1", str(huge)])
            print(f"peak RSS of `euchrelog check -j 1` on {nbytes / 1e6:.0f} MB: {rss:.0f} MB "
                  f"({seconds:.0f} s, {nbytes / seconds / 1e6:.1f} MB/s)")
            seconds, rss = cli(["check", "-q", "-j", "2", str(huge)])
            print(f"peak RSS of `euchrelog check -j 2` on {nbytes / 1e6:.0f} MB: {rss:.0f} MB "
                  f"a process ({seconds:.0f} s, {nbytes / seconds / 1e6:.1f} MB/s)")


if __name__ == "__main__":
    main()
