"""Benchmark: `euchrelog check` beside python-chess's PGN reader and pokerkit's PHH replay.

Not a test: nothing in the test suite depends on timing. Run it with the peers installed
(`pip install '.[bench]'`):

    python bench/run.py                # 1.5 MB of each format
    python bench/run.py --megabytes 5

Every corpus is generated here, reproducibly (fixed seeds), to the same byte size: random
legal four-hand euchre games (euchrelog's own generator), random legal chess games written
as PGN, and random no-limit hold'em hands written as PHH. Each reader then validates its
corpus fully: euchrelog parses and replays every deal; python-chess's `read_game` checks
every move; pokerkit loads each hand history and replays every state.
"""

from __future__ import annotations

import argparse
import io
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from euchrelog.check import check_json_lines, check_lines
from euchrelog.generate import random_game
from euchrelog.jsonio import game_to_json
from euchrelog.writer import dumps_game


def euchre_corpus(size: int, seed: int = 1) -> tuple[str, str, int]:
    """Notation and JSON Lines of the same games, at least ``size`` bytes of notation."""
    rng = random.Random(seed)
    texts: list[str] = []
    lines: list[str] = []
    deals = 0
    total = 0
    while total < size:
        game = random_game(random.Random(rng.random()))
        text = dumps_game(game)
        texts.append(text)
        lines.append(game_to_json(game) + "\n")
        deals += len(game.deals)
        total += len(text) + 1
    return "\n".join(texts), "".join(lines), deals


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


def timed(work: Callable[[], int]) -> tuple[float, int]:
    """Runs ``work`` (which returns a count) and returns seconds and the count."""
    start = time.perf_counter()
    count = work()
    return time.perf_counter() - start, count


def run_euchre(text: str) -> int:
    return sum(r.deals for r in check_lines(io.StringIO(text)))


def run_jsonl(text: str) -> int:
    return sum(r.deals for r in check_json_lines(io.StringIO(text)))


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


def peak_rss_mb(path: Path) -> float:
    """Peak resident memory of `euchrelog check` on ``path``, in a fresh process."""
    code = ("import resource, subprocess, sys;"
            "subprocess.run([sys.executable, '-m', 'euchrelog', 'check', '-q', sys.argv[1]],"
            " stdout=subprocess.DEVNULL);"
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True).stdout
    return int(out.strip()) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--megabytes", type=float, default=1.5,
                        help="size of each corpus (default 1.5)")
    args = parser.parse_args()
    size = int(args.megabytes * 1_000_000)
    print(f"generating corpora of {args.megabytes} MB ...", file=sys.stderr)
    euchre, jsonl, _ = euchre_corpus(size)
    pgn, _ = pgn_corpus(size)
    phh, _ = phh_corpus(size)
    rows: list[tuple[str, float, int, str, int]] = []
    seconds, count = timed(lambda: run_euchre(euchre))
    rows.append(("euchrelog check (notation)", seconds, len(euchre.encode()), "deals", count))
    seconds, count = timed(lambda: run_jsonl(jsonl))
    rows.append(("euchrelog check (JSON Lines)", seconds, len(jsonl.encode()), "deals", count))
    seconds, count = timed(lambda: run_pgn(pgn))
    rows.append(("python-chess read_game", seconds, len(pgn.encode()), "games", count))
    seconds, count = timed(lambda: run_phh(phh))
    rows.append(("pokerkit PHH load+replay", seconds, sum(len(t.encode()) for t in phh),
                 "hands", count))
    print(f"{'reader':30} {'MB/s':>8} {'items/s':>10}")
    speeds = {}
    for name, seconds, nbytes, unit, count in rows:
        speeds[name] = nbytes / seconds / 1e6
        print(f"{name:30} {speeds[name]:8.3f} {count / seconds:10.0f} {unit}/s")
    chess_speed = speeds["python-chess read_game"]
    print(f"\nnotation vs python-chess: {speeds['euchrelog check (notation)'] / chess_speed:.1f}x "
          f"(target 10x)")
    ratio = speeds["euchrelog check (JSON Lines)"] / speeds["euchrelog check (notation)"]
    print(f"JSON Lines vs notation:   {ratio:.1f}x (target 3x)")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "corpus.euchre"
        path.write_text(euchre, encoding="utf-8")
        print(f"peak RSS of `euchrelog check` on {len(euchre) / 1e6:.1f} MB: "
              f"{peak_rss_mb(path):.0f} MB")


if __name__ == "__main__":
    main()
