"""Regenerates the valid sample records of samples/valid from fixed seeds.

Run ``python tests/make_samples.py`` from the repository root to rewrite them, or
``python tests/make_samples.py --check`` to verify that they are up to date. Each sample is
a game from :func:`euchrelog.generate.random_game` with club tags and player names; the
comments a scorer would write (the Benny, lone hands, marches, euchres, thrown-in deals)
are added from what happened in the game, so the files are reproducible byte for byte.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from euchrelog.generate import (
    contract,
    hide_cards,
    play_only,
    random_game,
    ruleset_for,
    score_sheet,
)
from euchrelog.models import Deal, Game, Log, Tag
from euchrelog.replay import replay
from euchrelog.rules import Ruleset
from euchrelog.seats import Seat
from euchrelog.writer import dumps

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "samples" / "valid"

CLUB = "Maple Grove Legion Hall"


@dataclass
class Sample:
    """One game of a sample file: its seed, rules, tags and players."""

    seed: int
    ruleset: Ruleset
    tags: dict[str, str]
    players: tuple[str, str, str, str]
    """The players of N, E, S and W."""
    stop_after: int | None = None
    extra: dict[str, str] = field(default_factory=dict)
    """Tags after the players (e.g. one euchrelog does not know)."""
    reduce: Callable[[Game], Game] | None = None
    opening: tuple[str, ...] = ()
    """Comment lines above the first deal."""


def _tags(event: str, date: str, round_: str, table: str, site: str = CLUB) -> dict[str, str]:
    return {"Event": event, "Site": site, "Date": date, "Round": round_, "Table": table}


THURSDAY = "Thursday Night Euchre"

FILES: dict[str, list[Sample]] = {
    "four-hand-24-club-night.euchre": [Sample(
        51, ruleset_for(), _tags(THURSDAY, "2025-03-13", "2", "4"),
        ("Marge Keller", "Walt Brenner", "Dot Hanley", "Gus Ferris"),
        opening=("scored by Dot; hands written down after each deal",))],
    "four-hand-32-stick-the-dealer.euchre": [Sample(
        12, ruleset_for(deck=32, stick_the_dealer=True, dealer_pickup="required"),
        _tags("Legion Saturday League", "2025-03-15", "1", "2"),
        ("Ray Osterman", "Lena Voss", "Carl Duffy", "June Abernathy"),
        opening=("the long deck with sevens and eights: eleven cards in the kitty",))],
    "four-hand-25-benny.euchre": [Sample(
        97, ruleset_for(deck=25, lone_defender_euchre=4, lone_lead="dealer-left"),
        _tags("British Euchre Evening", "2025-04-02", "1", "1"),
        ("Alfie Trask", "Nell Garrow", "Bertie Sloane", "Maud Pennick"),
        opening=("joker in the pack: the Benny is the top trump",))],
    "play-only.euchre": [Sample(
        90, ruleset_for(), _tags(THURSDAY, "2025-03-20", "1", "3"),
        ("Hal Pruitt", "Vera Lind", "Otis Crane", "Faye Dorsey"),
        reduce=play_only,
        opening=("only the cards played were written down, not the hands",))],
    "score-sheet.euchre": [Sample(
        23, ruleset_for(lone_defender=False), _tags(THURSDAY, "2025-03-27", "3", "1"),
        ("Marge Keller", "Otis Crane", "Dot Hanley", "Vera Lind"),
        reduce=score_sheet,
        opening=("the club score sheet: trump, maker and tricks for each deal",))],
    "unknown-cards.euchre": [Sample(
        5, ruleset_for(deck=25), _tags("British Euchre Evening", "2025-04-16", "2", "2"),
        ("Nell Garrow", "Alfie Trask", "Maud Pennick", "Bertie Sloane"),
        reduce=lambda g: hide_cards(g, random.Random(5), 0.15),
        opening=("?? marks a card nobody remembered",))],
    "several-games.euchre": [
        Sample(seed, ruleset_for(target=5),
               _tags("Spring Progressive", "2025-05-03", "1", str(table)), players,
               opening=(f"table {table}: first to five",))
        for table, (seed, players) in enumerate((
            (7, ("Ray Osterman", "Faye Dorsey", "Lena Voss", "Hal Pruitt")),
            (8, ("Carl Duffy", "Gus Ferris", "June Abernathy", "Walt Brenner")),
            (9, ("Marge Keller", "Alfie Trask", "Dot Hanley", "Nell Garrow")),
        ), start=1)],
    "unfinished.euchre": [Sample(
        13, ruleset_for(deck=32), _tags(THURSDAY, "2025-04-10", "4", "2"),
        ("Gus Ferris", "June Abernathy", "Walt Brenner", "Carl Duffy"),
        stop_after=5)],
    "unknown-tag.euchre": [Sample(
        3, ruleset_for(deals=8, renege=3),
        _tags("Online Euchre Night", "2025-05-10", "1", "1", site="euchre.example.org"),
        ("Sam Ortiz", "Priya Nair", "Tom Becker", "Ines Halloran"),
        extra={"Stream": "twitch"},
        opening=("eight deals a round; the Stream tag is ours, euchrelog keeps it as is",))],
}
"""Every sample file and the games it holds."""

# ---------------------------------------------------------------- comments


def _first_name(game: Game, seat: Seat) -> str:
    name = game.tag({Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}[seat])
    return (name or seat.value).split()[0]


def _side(seat: Seat) -> str:
    return "NS" if seat in (Seat.N, Seat.S) else "EW"


def _annotate_deal(game: Game, deal: Deal) -> Deal:
    """Adds the notes a scorer writes on a deal worth remembering."""
    if deal.sheet is not None:
        maker = deal.sheet.maker
    else:
        fixed = contract(deal)
        maker = fixed[1] if fixed is not None else None
    if maker is None:
        if len(deal.bidding) == 2:
            line = deal.bidding[1].model_copy(update={"note": "nobody wants it: thrown in"})
            return deal.model_copy(update={"bidding": (deal.bidding[0], line)})
        return deal
    update: dict[str, object] = {}
    if deal.up is not None and deal.up.card is not None and deal.up.card.is_joker:
        update["up"] = deal.up.model_copy(update={"note": "the Benny!"})
        update["bidding"] = tuple(
            line.model_copy(update={"before": (f"{_first_name(game, maker)} names trump",)})
            for line in deal.bidding)
    if deal.exchange is not None and deal.exchange.act == "declines":
        update["exchange"] = deal.exchange.model_copy(
            update={"note": f"{_first_name(game, deal.dealer)} leaves it"})
    update["declarations"] = tuple(
        d.model_copy(update={"note": f"{_first_name(game, d.seat)} "
                                     f"{'goes' if d.act == 'alone' else 'defends'} alone"})
        for d in deal.declarations)
    score = deal.score
    if score is not None and score.points:
        (side, points), = score.points.items()
        note = None
        defender = next((d.seat for d in deal.declarations if d.act == "defend"), None)
        if deal.sheet is not None:
            defender = deal.sheet.defend
        if side != _side(maker):
            note = "euchred"
            if defender is not None:
                note = f"euchred by {_first_name(game, defender)} alone: {points}"
        elif points >= 2:
            note = "march" if points == 2 else "lone march, 4"
        if note is not None:
            update["score"] = score.model_copy(update={"note": note})
    return deal.model_copy(update=update)


def annotate(game: Game, opening: tuple[str, ...]) -> Game:
    """The game with a scorer's comments."""
    deals = [_annotate_deal(game, d) for d in game.deals]
    if deals and opening:
        deals[0] = deals[0].model_copy(update={"before": opening})
    end = game.end
    if end is not None and end.act == "result" and end.winner and end.scores:
        names = [_first_name(game, s) for s in (Seat.N, Seat.S, Seat.E, Seat.W)]
        team = " and ".join(names[:2] if end.winner == "NS" else names[2:])
        end = end.model_copy(update={"note": f"{team} win"})
    elif end is not None and end.act == "unfinished":
        end = end.model_copy(update={"before": ("the hall closed at ten; not played out",)})
    return game.model_copy(update={"deals": tuple(deals), "end": end})


# ---------------------------------------------------------------- files


def make_game(sample: Sample) -> Game:
    """Generates, reduces and annotates one sample game."""
    players = dict(zip((Seat.N, Seat.E, Seat.S, Seat.W), sample.players, strict=True))
    game = random_game(random.Random(sample.seed), sample.ruleset, players=players,
                       tags=sample.tags, stop_after=sample.stop_after)
    if sample.extra:
        extra = tuple(Tag(name=k, value=v) for k, v in sample.extra.items())
        game = game.model_copy(update={"tags": game.tags + extra})
    if sample.reduce is not None:
        game = sample.reduce(game)
    return annotate(game, sample.opening)


def make_file(name: str) -> str:
    """The canonical text of one sample file."""
    games = tuple(make_game(s) for s in FILES[name])
    for game in games:
        findings = replay(game).findings
        if findings:
            raise SystemExit(f"{name}: the generated game does not replay clean: {findings[0]}")
    return dumps(Log(games=games))


def main(argv: list[str] | None = None) -> int:
    """Writes (or with ``--check`` compares) every sample file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("outdir", nargs="?", type=Path, default=OUT,
                        help="where to write the files (default: samples/valid)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; exit 1 if a file differs from what the seeds give")
    args = parser.parse_args(argv)
    stale = 0
    for name in FILES:
        text = make_file(name)
        path = args.outdir / name
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                print(f"out of date: {path}", file=sys.stderr)
                stale += 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
        print(f"wrote {path}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
