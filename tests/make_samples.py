"""Regenerates the valid sample records of samples/valid from fixed seeds.

Run ``python tests/make_samples.py`` from the repository root to rewrite them, or
``python tests/make_samples.py --check`` to verify that they are up to date. Each sample is
a game from :func:`euchrelog.generate.random_game` with club tags and player names; the
comments a scorer would write (the Benny, lone hands, swaps, marches, euchres,
moons, ties at the target, thrown-in deals) are added from what happened in the game, and
the penalties a sample lists are charged (H6), so
the files are reproducible byte for byte. The seeds of the samples of the other variants
were found by searching for games that show what each file is about (see ``FILES``).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from euchrelog.cards import NO_TRUMP
from euchrelog.generate import (
    contract,
    hide_cards,
    play_only,
    random_game,
    ruleset_for,
    score_sheet,
    trick_bid,
)
from euchrelog.models import (
    Call,
    Deal,
    End,
    Exchange,
    Game,
    Log,
    Merge,
    Order,
    Penalty,
    Swap,
    Tag,
)
from euchrelog.notation.writer import dumps
from euchrelog.replay import replay
from euchrelog.rules import MOON, Ruleset, ruleset_from_tags
from euchrelog.seats import Seat

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "samples" / "valid"

CLUB = "Maple Grove Legion Hall"


@dataclass
class Sample:
    """One game of a sample file: its seed, rules, tags and players."""

    seed: int
    ruleset: Ruleset
    tags: dict[str, str]
    players: tuple[str, ...]
    """The players of the seats in play, clockwise from North (N, E, S, W in four-hand)."""
    stop_after: int | None = None
    extra: dict[str, str] = field(default_factory=dict)
    """Tags after the players (e.g. one euchrelog does not know)."""
    reduce: Callable[[Game], Game] | None = None
    opening: tuple[str, ...] = ()
    """Comment lines above the first deal."""
    penalties: tuple[tuple[int, str, int, str], ...] = ()
    """Penalties charged (H6): the deal's number, the player or side, points and reason."""


def _tags(event: str, date: str, round_: str, table: str, site: str = CLUB) -> dict[str, str]:
    return {"Event": event, "Site": site, "Date": date, "Round": round_, "Table": table}


THURSDAY = "Thursday Night Euchre"
THREES = "Short-Table Tuesday"
"""The club's night for tables of three (cutthroat, three-hand, ghost) and two."""

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
    # ------------------------------------------------------------ house rules (H3, H5)
    # 10 deals: the dealer's partner orders up four times and goes alone each time.
    "four-hand-canadian-loner.euchre": [Sample(
        33, ruleset_for(canadian_loner=True), _tags("Ontario Open", "2025-09-06", "1", "5"),
        ("Moira Tesky", "Len Fortier", "Bev Lachance", "Stu Harnish"),
        opening=("canadian loner: the dealer's partner who orders it up plays alone",))],
    # 11 deals on the long deck: four round-2 calls of no trump.
    "four-hand-no-trump.euchre": [Sample(
        73, ruleset_for(no_trump=True, deck=32), _tags("Ontario Open", "2025-09-06", "2", "5"),
        ("Bev Lachance", "Stu Harnish", "Moira Tesky", "Len Fortier"),
        opening=("no trump may be called in round 2: no bowers, the led suit wins",))],
    # 13 deals under both house rules: four calls of no trump, three canadian loners.
    "four-hand-no-trump-score-sheet.euchre": [Sample(
        52, ruleset_for(no_trump=True, canadian_loner=True),
        _tags("Ontario Open", "2025-09-07", "3", "2"),
        ("Len Fortier", "Moira Tesky", "Stu Harnish", "Bev Lachance"),
        reduce=score_sheet,
        opening=("the score sheet: NT where no trump was called",))],
    # 7 deals: the maker's partner goes alone once (the maker sits out), a maker once.
    "four-hand-partner-alone.euchre": [Sample(
        104, ruleset_for(partner_alone=True), _tags("Ontario Open", "2025-09-07", "4", "3"),
        ("Stu Harnish", "Bev Lachance", "Len Fortier", "Moira Tesky"),
        opening=("either partner of the makers may go alone: the other one sits out",))],
    # 6 deals: three times the dealer holds no card of the upcard's suit and must leave it,
    # though dealer-pickup=required.
    "four-hand-natural-pickup.euchre": [Sample(
        22, ruleset_for(natural_pickup=True, dealer_pickup="required"),
        _tags("Legion Saturday League", "2025-09-27", "1", "3"),
        ("June Abernathy", "Carl Duffy", "Lena Voss", "Ray Osterman"),
        opening=("the dealer takes the upcard only holding a natural trump (the left bower "
                 "does not count)",))],
    # ------------------------------------------------------------ cutthroat (X1-X9)
    "cutthroat-club-night.euchre": [Sample(
        45, ruleset_for("cutthroat"), _tags(THREES, "2025-06-03", "1", "7"),
        ("Marge Keller", "Walt Brenner", "Dot Hanley"),
        opening=("three at the table, each for themselves; the dummy sits West",))],
    # 19 deals: 14 merges, three lone makers, a lone defender, two declined upcards, a deal
    # thrown in; E and S tie at 11 after deal 18 and play on; S wins by one.
    "cutthroat-long-tie.euchre": [Sample(
        1685, ruleset_for("cutthroat"), _tags(THREES, "2025-06-10", "2", "7"),
        ("Ray Osterman", "Lena Voss", "Carl Duffy"),
        opening=("a long one: nobody could get clear of the others",))],
    "cutthroat-north-east-west.euchre": [Sample(
        6, ruleset_for("cutthroat", "N E W", deck=32, stick_the_dealer=True),
        _tags(THREES, "2025-06-17", "1", "8"),
        ("Alfie Trask", "Nell Garrow", "Maud Pennick"),
        opening=("South is empty tonight, so the dummy is dealt there",
                 "long deck, and the dealer is stuck in round 2"))],
    "cutthroat-dummy-required.euchre": [Sample(
        57, ruleset_for("cutthroat", deck=25, dummy="required", lone_defender=False),
        _tags("British Euchre Evening", "2025-06-18", "1", "3"),
        ("Bertie Sloane", "Maud Pennick", "Alfie Trask"),
        opening=("house rules: the maker takes up the dummy or goes alone; no lone "
                 "defenders; the Benny is in",))],
    "cutthroat-score-sheet.euchre": [Sample(
        29, ruleset_for("cutthroat"), _tags(THREES, "2025-06-24", "3", "7"),
        ("Gus Ferris", "June Abernathy", "Hal Pruitt"),
        reduce=score_sheet,
        opening=("the score sheet only: trump, maker, lone hands and the maker's tricks",))],
    # ------------------------------------------------------------ three-hand (X10)
    "three-hand-club-night.euchre": [Sample(
        2, ruleset_for("three-hand", dealer_pickup="required", stick_the_dealer=True),
        _tags(THREES, "2025-07-01", "1", "9"),
        ("Vera Lind", "Otis Crane", "Faye Dorsey"),
        opening=("no dummy: the maker always plays alone against the other two",))],
    # 15 deals on the long deck: two lone defenders, two marches, a deal thrown in; won by
    # one point.
    "three-hand-long.euchre": [Sample(
        519, ruleset_for("three-hand", deck=32, lone_defender=True),
        _tags(THREES, "2025-07-08", "2", "9"),
        ("Sam Ortiz", "Priya Nair", "Tom Becker"),
        opening=("long deck; a defender may go it alone against the maker",))],
    # ------------------------------------------------------------ ghost (G1-G7)
    "ghost-club-night.euchre": [Sample(
        10, ruleset_for("ghost", "E S W"), _tags(THREES, "2025-07-15", "1", "10"),
        ("Ines Halloran", "Lena Voss", "Ray Osterman"),
        opening=("bid euchre with a ghost hand; North's place holds the ghost",))],
    # 20 deals: four swaps, two bidders set, a failed moon (-6), two deals thrown in, a
    # negative score; N and E tie at 32 after deal 19 and play on; N wins by one.
    "ghost-long-tie.euchre": [Sample(
        507, ruleset_for("ghost"), _tags(THREES, "2025-07-22", "2", "10"),
        ("Priya Nair", "Carl Duffy", "June Abernathy"),
        opening=("a long one, and a tie at the target",))],
    # A moon made (24) and a moon failed (-24 under the house rule), six swaps, a deal
    # thrown in; won by two.
    "ghost-moon.euchre": [Sample(
        194, ruleset_for("ghost", failed_moon=-24), _tags(THREES, "2025-07-29", "1", "11"),
        ("Dot Hanley", "Gus Ferris", "Marge Keller"),
        opening=("house rule: a failed moon costs 24, as much as a made one brings",))],
    "ghost-play-only.euchre": [Sample(
        3, ruleset_for("ghost"), _tags(THREES, "2025-08-05", "3", "10"),
        ("Tom Becker", "Sam Ortiz", "Walt Brenner"),
        reduce=play_only,
        opening=("the bids and the cards played, not the hands or the ghost hand",))],
    # ------------------------------------------------------------ two-hand (T1-T6)
    "two-hand-club-night.euchre": [Sample(
        1, ruleset_for("two-hand"), _tags(THREES, "2025-08-12", "1", "12"),
        ("Hal Pruitt", "Faye Dorsey"),
        opening=("two players, five cards each; thirteen cards stay in the stock",))],
    # 16 deals with the Benny: three deals thrown in, two declined upcards; won by one.
    "two-hand-east-west.euchre": [Sample(
        9, ruleset_for("two-hand", "E W", deck=25), _tags(THREES, "2025-08-19", "2", "12"),
        ("Nell Garrow", "Bertie Sloane"),
        opening=("East against West, with the Benny",))],
    # ------------------------------------------------------------ house rules (H1-H6)
    # A lone maker euchred: the defenders score 4.
    "four-hand-euchred-loner.euchre": [Sample(
        27, ruleset_for(euchred_loner=4), _tags("Legion Saturday League", "2025-09-06", "1", "1"),
        ("Ray Osterman", "Lena Voss", "Carl Duffy", "June Abernathy"),
        opening=("house rule: euchre a lone hand and it is worth 4",))],
    # Two makers set, one of them alone (-3); both sides below zero on the way.
    "four-hand-set.euchre": [Sample(
        280, ruleset_for(euchre_scoring="set", euchred_loner=3),
        _tags("Legion Saturday League", "2025-09-13", "2", "1"),
        ("Marge Keller", "Walt Brenner", "Dot Hanley", "Gus Ferris"),
        opening=("set scoring: a euchre costs the makers 2, a lone hand 3",))],
    # Eight deals a round, a deal thrown in and dealt again by the same dealer, a penalty.
    "four-hand-same-dealer.euchre": [Sample(
        4, ruleset_for(pass_out="same-dealer", deals=8),
        _tags("Spring Progressive", "2025-09-20", "3", "2"),
        ("Hal Pruitt", "Vera Lind", "Otis Crane", "Faye Dorsey"),
        penalties=((3, "W", 1, "table talk"),),
        opening=("eight deals; a hand nobody calls is dealt again by the same dealer",))],
    "cutthroat-set-same-dealer.euchre": [Sample(
        45, ruleset_for("cutthroat", euchre_scoring="set", pass_out="same-dealer"),
        _tags(THREES, "2025-09-23", "1", "7"),
        ("Sam Ortiz", "Priya Nair", "Tom Becker"),
        penalties=((2, "N", 2, "false renege claim"),),
        opening=("set scoring, and the same dealer deals again after a pass-out",))],
    "three-hand-set-same-dealer.euchre": [Sample(
        364, ruleset_for("three-hand", euchre_scoring="set", pass_out="same-dealer"),
        _tags(THREES, "2025-09-30", "1", "9"),
        ("Ines Halloran", "Lena Voss", "Ray Osterman"),
        penalties=((4, "E", 1, "looked at the kitty"),),
        opening=("set scoring, and the same dealer deals again after a pass-out",))],
    "two-hand-set-same-dealer.euchre": [Sample(
        159, ruleset_for("two-hand", euchre_scoring="set", pass_out="same-dealer"),
        _tags(THREES, "2025-10-07", "1", "12"),
        ("Nell Garrow", "Bertie Sloane"),
        penalties=((2, "N", 1, "played before the lead"),),
        opening=("set scoring, and the same dealer deals again after a pass-out",))],
    "ghost-penalty.euchre": [Sample(
        11, ruleset_for("ghost"), _tags(THREES, "2025-10-14", "1", "10"),
        ("Dot Hanley", "Gus Ferris", "Marge Keller"),
        penalties=((2, "E", 2, 'said "moon" out of turn'),),
        opening=("a penalty for table talk, charged by the director",))],
}
"""Every sample file and the games it holds."""

# ---------------------------------------------------------------- comments

_SEAT_TAGS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}


def _first_name(game: Game, seat: Seat) -> str:
    name = game.tag(_SEAT_TAGS[seat])
    return (name or seat.value).split()[0]


def _ruleset(game: Game) -> Ruleset:
    tags: dict[str, str] = {}
    for tag in game.tags:
        tags.setdefault(tag.name, tag.value)
    return ruleset_from_tags(tags)[0]


def _join(*notes: str | None) -> str | None:
    return "; ".join(n for n in notes if n) or None


def _thrown(game: Game, deal: Deal, ruleset: Ruleset) -> Deal:
    """The note on the bid line of a deal everyone passed."""
    if ruleset.variant.bidding == "tricks" and deal.bidding:
        line = deal.bidding[0]
        return deal.model_copy(update={"bidding": (line.model_copy(update={
            "note": _join(line.note, "no bids: thrown in")}),)})
    if len(deal.bidding) == 2:
        line = deal.bidding[1].model_copy(update={"note": "nobody wants it: thrown in"})
        return deal.model_copy(update={"bidding": (deal.bidding[0], line)})
    return deal


def _score_note(game: Game, deal: Deal, ruleset: Ruleset, maker: Seat,
                points: dict[str, int]) -> str | None:
    """What a scorer writes beside the points of a deal worth remembering."""
    name = ruleset.variant.name
    defender = next((d.seat for d in deal.declarations if d.act == "defend"), None)
    if deal.sheet is not None:
        defender = deal.sheet.defend
    side = ruleset.side(maker)
    if name == "ghost":
        bid = deal.sheet.bid if deal.sheet is not None else trick_bid(deal)
        own = points.get(side, 0)
        if bid == MOON:
            return f"moon made: {own}" if own > 0 else f"moon failed: {own}"
        if own < 0:
            return f"{_first_name(game, maker)} is set: {own}"
        return None
    if points.get(side, 0) < 0:
        return f"euchred: set {-points[side]}"
    if name == "four-hand":
        (scorer, won), = points.items()
        if scorer != side:
            if defender is not None:
                return f"euchred by {_first_name(game, defender)} alone: {won}"
            return "euchred" if won == 2 else f"lone hand euchred: {won}"
        if won >= 2:
            return "march" if won == 2 else "lone march, 4"
        return None
    won = max(points.values())
    if side not in points:
        each = " each" if len(points) > 1 else ""
        if defender is not None:
            return f"euchred by {_first_name(game, defender)} alone: {won}{each}"
        return f"euchred: {won}{each}"
    if won >= 2:
        return "march" if name == "two-hand" else f"march, {won}"
    return None


def _annotate_deal(game: Game, deal: Deal, ruleset: Ruleset) -> Deal:
    """Adds the notes a scorer writes on a deal worth remembering."""
    if deal.sheet is not None:
        maker = deal.sheet.maker
    else:
        fixed = contract(deal)
        maker = fixed[1] if fixed is not None else None
    swapper = next((b.seat for b in deal.bids if isinstance(b, Swap)), None)
    if swapper is not None:
        line = deal.bidding[0]
        swap = f"{_first_name(game, swapper)} swaps with the ghost hand"
        deal = deal.model_copy(update={"bidding": (line.model_copy(update={"note": swap}),)})
    if maker is None:
        return _thrown(game, deal, ruleset)
    update: dict[str, object] = {}
    if deal.up is not None and deal.up.card is not None and deal.up.card.is_joker:
        update["up"] = deal.up.model_copy(update={"note": "the Benny!"})
        update["bidding"] = tuple(
            line.model_copy(update={"before": (f"{_first_name(game, maker)} names trump",)})
            for line in deal.bidding)
    if any(isinstance(b, Call) and b.suit is NO_TRUMP for b in deal.bids):
        update["bidding"] = (*deal.bidding[:-1], deal.bidding[-1].model_copy(
            update={"note": f"{_first_name(game, maker)} calls no trump"}))
    exchange = deal.exchange
    if exchange is not None and exchange.act == "declines":
        up = deal.up.card if deal.up is not None else None
        held = deal.hands[0].cards.get(deal.dealer, ()) if deal.hands else ()
        suit = up.suit if up is not None else None
        barred = ruleset.options.natural_pickup and suit is not None and held and all(
            c is not None and c.suit is not suit for c in held)
        why = f"no natural {suit.noun[:-1]}: " if barred and suit is not None else ""
        exchange = exchange.model_copy(
            update={"note": f"{why}{_first_name(game, deal.dealer)} leaves it"})
    canadian = ruleset.options.canadian_loner and maker == deal.dealer.partner and any(
        isinstance(b, Order) for b in deal.bids)
    why = " (canadian loner)" if canadian else ""
    update["acts"] = tuple(
        exchange if isinstance(d, Exchange) else d if isinstance(d, Merge) else
        d.model_copy(update={"note": f"{_first_name(game, d.seat)} goes alone{why}"
                             if d.act == "alone" and d.seat == maker else
                             f"{_first_name(game, d.seat)} goes alone, "
                             f"{_first_name(game, maker)} sits out"
                             if d.act == "alone" else f"{_first_name(game, d.seat)} defends "
                                                      "alone"})
        for d in deal.acts)
    score = deal.score
    if score is not None and score.points:
        note = _score_note(game, deal, ruleset, maker, dict(score.points))
        total = score.total or {}
        best = max(total.values(), default=0)
        if (best >= ruleset.options.target
                and sum(v == best for v in total.values()) > 1):
            note = _join(note, f"tied at {best}: play on")
        if note is not None:
            update["score"] = score.model_copy(update={"note": note})
    return deal.model_copy(update=update)


def _winner_note(game: Game, ruleset: Ruleset, end: End) -> str:
    if ruleset.variant.partnership:
        names = [_first_name(game, s) for s in (Seat.N, Seat.S, Seat.E, Seat.W)]
        return f"{' and '.join(names[:2] if end.winner == 'NS' else names[2:])} win"
    assert end.winner is not None
    return f"{_first_name(game, Seat(end.winner))} wins"


def annotate(game: Game, opening: tuple[str, ...]) -> Game:
    """The game with a scorer's comments."""
    ruleset = _ruleset(game)
    deals = [_annotate_deal(game, d, ruleset) for d in game.deals]
    if deals and opening:
        deals[0] = deals[0].model_copy(update={"before": opening})
    end = game.end
    if end is not None and end.act == "result" and end.winner and end.scores:
        end = end.model_copy(update={"note": _winner_note(game, ruleset, end)})
    elif end is not None and end.act == "unfinished":
        end = end.model_copy(update={"before": ("the hall closed at ten; not played out",)})
    return game.model_copy(update={"deals": tuple(deals), "end": end})


# ---------------------------------------------------------------- files


def charge(game: Game, penalties: tuple[tuple[int, str, int, str], ...]) -> Game:
    """The game with penalties charged (H6): each takes its points off the side's running
    totals from its deal on, and off the result."""
    ruleset = _ruleset(game)
    deals = list(game.deals)
    end = game.end
    for number, who, points, reason in penalties:
        k = next(i for i, deal in enumerate(deals) if deal.number == number)
        side = ruleset.side_of(who)
        penalty = Penalty(who=who, points=points, reason=reason)
        deals[k] = deals[k].model_copy(update={"penalties": (*deals[k].penalties, penalty)})
        for j in range(k, len(deals)):
            score = deals[j].score
            if score is not None and score.total is not None:
                total = {**score.total, side: score.total[side] - points}
                deals[j] = deals[j].model_copy(update={"score": score.model_copy(
                    update={"total": total})})
        if end is not None and end.scores:
            end = end.model_copy(update={"scores": {**end.scores,
                                                    side: end.scores[side] - points}})
    return game.model_copy(update={"deals": tuple(deals), "end": end})


def make_game(sample: Sample) -> Game:
    """Generates, reduces and annotates one sample game."""
    players = dict(zip(sample.ruleset.seats, sample.players, strict=True))
    game = random_game(random.Random(sample.seed), sample.ruleset, players=players,
                       tags=sample.tags, stop_after=sample.stop_after)
    if sample.extra:
        extra = tuple(Tag(name=k, value=v) for k, v in sample.extra.items())
        game = game.model_copy(update={"tags": game.tags + extra})
    if sample.penalties:
        game = charge(game, sample.penalties)
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
