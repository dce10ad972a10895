"""A whole generated game: its header (:func:`game_tags`), its deals played and scored to
the game's end (:func:`finish_game`, :func:`random_game`), and the ruleset it is played
under (:func:`ruleset_for`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Literal

from ..models import Deal, End, Game, Score, Tag
from ..rules import FOUR_HAND, Options, Ruleset, Variant, find_variant
from ..seats import SEATS, Seat, parse_seat
from .deal import DealOutcome, play_deal
from .partial import hide_cards, play_only, score_sheet

Detail = Literal["full", "play-only", "score-sheet", "unknown-cards"]
"""How much of each deal a generated record keeps."""

SEAT_TAGS = {Seat.N: "North", Seat.E: "East", Seat.S: "South", Seat.W: "West"}
"""The tag that names the player of each seat."""

DEFAULT_PLAYERS = {Seat.N: "Ann", Seat.E: "Ben", Seat.S: "Cleo", Seat.W: "Dev"}

MAX_DEALS = 500
"""A game that has not ended after this many deals is recorded as unfinished."""


def game_tags(ruleset: Ruleset, *, players: Mapping[Seat, str] | None = None,
              tags: Mapping[str, str] | None = None) -> list[Tag]:
    """The header of a generated game: ``tags`` first, then Variant, Seats (when not the
    variant's), Deck, Target, Rules and the players of the seats in play."""
    out = [Tag(name=k, value=v) for k, v in (tags or {"Event": "Random game"}).items()]
    variant = ruleset.variant
    out.append(Tag(name="Variant", value=variant.name))
    if ruleset.seats != variant.seats:
        out.append(Tag(name="Seats", value=" ".join(ruleset.seats)))
    options = ruleset.options
    if options.deck != variant.decks[0]:
        out.append(Tag(name="Deck", value=str(options.deck)))
    if options.deals is None:
        out.append(Tag(name="Target", value=str(options.target)))
    rest = replace(options, deck=variant.decks[0], target=variant.target)
    spelled = rest.spell(variant)
    if spelled:
        out.append(Tag(name="Rules", value=spelled))
    names = players if players is not None else DEFAULT_PLAYERS
    out.extend(Tag(name=SEAT_TAGS[s], value=names[s]) for s in ruleset.seats if s in names)
    return out


def finish_game(rng: random.Random, ruleset: Ruleset, deals: Sequence[DealOutcome], *,
                first_dealer: Seat = Seat.N,
                stop_after: int | None = None) -> tuple[list[Deal], End]:
    """Scores ``deals`` (played already, perhaps none) and plays new ones until the game
    ends; returns the scored deal records and the end line.

    A game that ends within ``deals`` is cut there. With ``stop_after``, the record stops
    after that many deals and, if the game has not ended, is marked unfinished.
    """
    sides = ruleset.side_names
    totals = dict.fromkeys(sides, 0)
    records: list[Deal] = []
    dealer = first_dealer
    limit = min(stop_after or MAX_DEALS, MAX_DEALS)
    counted = 0
    while len(records) < limit:
        k = len(records)
        if k < len(deals):
            outcome = deals[k]
            dealer = outcome.deal.dealer
        else:
            outcome = play_deal(rng, ruleset, k + 1, dealer)
        for side, n in outcome.points.items():
            totals[side] += n
        deal = outcome.deal
        if not outcome.thrown:
            deal = deal.model_copy(update={"score": Score(points=dict(outcome.points),
                                                          total=dict(totals))})
        records.append(deal)
        dealer = ruleset.next_dealer(dealer, outcome.thrown)
        counted += ruleset.counts(outcome.thrown)
        if ruleset.outcome(totals, counted) is not None:
            best = max(totals.values())
            leaders = [s for s in sides if totals[s] == best]
            winner = leaders[0] if len(leaders) == 1 else None
            return records, End(act="result", scores=dict(totals), winner=winner)
    return records, End(act="unfinished")


def random_game(rng: random.Random, ruleset: Ruleset | None = None, *,
                players: Mapping[Seat, str] | None = None,
                tags: Mapping[str, str] | None = None,
                detail: Detail = "full",
                first_dealer: Seat | None = None,
                stop_after: int | None = None,
                unknown_rate: float = 0.2) -> Game:
    """Plays a whole random game of any variant and returns its record.

    :param ruleset: the variant, house rules and seats (default: four-hand with the
        rulings of RULES.md).
    :param players: the player of each seat (default: stock names); only the seats in play
        are named.
    :param tags: tags to put first, e.g. Event and Date (default: an Event tag).
    :param detail: ``full`` records everything; ``play-only``, ``score-sheet`` and
        ``unknown-cards`` reduce the record as :func:`play_only`, :func:`score_sheet`
        and :func:`hide_cards` do.
    :param first_dealer: the dealer of deal 1 (default: drawn at random).
    :param stop_after: stop the record after this many deals (marked unfinished if the game
        had not ended by then).
    :param unknown_rate: the share of cards :func:`hide_cards` hides.
    """
    ruleset = ruleset or Ruleset()
    dealer = first_dealer if first_dealer is not None else rng.choice(ruleset.seats)
    if dealer not in ruleset.seats:
        raise ValueError(f"the first dealer {dealer} has no player in this game")
    deals, end = finish_game(rng, ruleset, (), first_dealer=dealer, stop_after=stop_after)
    game = Game(tags=tuple(game_tags(ruleset, players=players, tags=tags)), deals=tuple(deals),
                end=end)
    if detail == "play-only":
        return play_only(game)
    if detail == "score-sheet":
        return score_sheet(game)
    if detail == "unknown-cards":
        return hide_cards(game, rng, unknown_rate)
    return game


def ruleset_for(variant: str | Variant = FOUR_HAND, seats: str | Sequence[Seat] = (),
                **options: object) -> Ruleset:
    """A ruleset from a variant (name or object), seats (``"N E W"``) and option names as
    keywords (``deck=25``, ``stick_the_dealer=True``); options not given take the variant's
    defaults.

    >>> ruleset_for(deck=32, stick_the_dealer=True).options.spell(FOUR_HAND)
    'deck=32 stick-the-dealer'
    >>> rules = ruleset_for("cutthroat", "N E W", dummy="required")
    >>> rules.seats, rules.options.spell(rules.variant)
    ((<Seat.N: 'N'>, <Seat.E: 'E'>, <Seat.W: 'W'>), 'dummy=required')
    """
    kind = find_variant(variant) if isinstance(variant, str) else variant
    chosen = tuple(parse_seat(s) for s in seats.split()) if isinstance(seats, str) else tuple(
        seats)
    ordered = tuple(s for s in SEATS if s in chosen)
    base = Options.defaults(kind)
    return Ruleset(kind, replace(base, **options), ordered)  # type: ignore[arg-type]
