"""The fast path of ``check``: a game replayed from its JSON form, deal by deal through the
engine's bulk entry where it takes the deal.

Most games checked in bulk are clean, and most deals of the others are. The fast path
states no rule of the game: it runs the full replay's game loop
(:class:`~euchrelog.replay.GameReplay`), in which each deal goes through the bulk entry of
the one engine (:meth:`DealState.run <euchrelog.engine.DealState.run>`) with its acts
validated once by their models and kept. A deal the bulk entry does not take (a score-sheet
line, a renege claim, a deal with a fault) is validated as a model and replayed in full.

:func:`check_form` replays a game read from notation (:func:`~euchrelog.notation.read_game`:
any spacing, case and comments) so, findings and all, each placed by the game's source
map. :func:`replay_form` and :func:`verify_json` (the form ``json.loads`` gives a line of
JSON Lines) prove a game clean or decline it: at the first finding they return ``None``,
and the caller builds the models of the whole game and replays them. The test suite and
the fuzzer hold both to the full path's findings, places and reports.

>>> from euchrelog.generate import random_game
>>> from euchrelog.notation.writer import dumps_game
>>> import random
>>> report = verify_notation(dumps_game(random_game(random.Random(3))))
>>> report is not None and report.ended and report.findings
[]
>>> verify_notation('[Variant "four-hand"]\\n\\ndeal 1 dealer Q\\n') is None
True
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, cast

from .bulk import DEAL_KEYS, LOOP_KEYS, DeclineError, Parts, form_parts, read_parts
from .cards import Card
from .engine import DealState, Phase, dealt_cleanly
from .errors import NotationError
from .findings import Fix, Severity
from .head import Decline, ScoreHead, read_head
from .notation import Form, GameForm, Locus, SourceMap, read_game
from .replay import DealResult, GameReplay, GameReport
from .rules import Ruleset
from .seats import Seat

if TYPE_CHECKING:
    from .models import Deal, Game

_LOOKUP_ERRORS = (DeclineError, KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What a game of unexpected shape raises on the way: the fast path then declines."""


def replay_game(game: Any) -> GameReport | None:
    """Replays one game in its JSON form (as ``json.loads`` gives it, or as the notation
    reader builds it, comments and all): its report if the fast path finds it clean, else
    ``None``."""
    try:
        return _game(game)
    except _LOOKUP_ERRORS:
        return None


class _BulkReplay(GameReplay):
    """The game loop of the full replay, with each deal the engine's bulk entry takes
    replayed by it (from its :class:`~euchrelog.bulk.Parts`, or from the JSON form), and
    every other deal by the full replay of its model. ``declines``: the first finding
    declines the game; else findings are collected, placed by ``source``. ``form_of``: the
    JSON form of a deal given as its parts, made when asked for
    (:attr:`~euchrelog.bulk.PartsRead.form_of`)."""

    def __init__(self, game: Game, deals: list[Any], source: SourceMap | None,
                 declines: bool, form_of: Callable[[int], Form] | None = None) -> None:
        self.forms = deals
        self.declines = declines
        self.form_of = form_of
        self.emitted = 0
        """The findings emitted so far."""
        super().__init__(game, source, False, None)
        if len(_SHEETS) > _KEPT:
            _SHEETS.clear()
        self.sheets = _SHEETS.setdefault(self.ruleset, {})

    def emit(self, code: str, message: str, locus: Locus, *, deal: int | None = None,
             trick: int | None = None, seat: Seat | str | None = None,
             level: Severity | None = None, card: Card | None = None,
             part: str | None = None, fix: Fix | None = None) -> None:
        # (the keywords by name: the compiled build passes ``**kwargs`` on as a positional
        # argument, and every game with a finding then took the full path)
        if self.declines:
            raise DeclineError
        self.emitted += 1
        super().emit(code, message, locus, deal=deal, trick=trick, seat=seat, level=level,
                     card=card, part=part, fix=fix)

    def model(self, d: int) -> Deal:
        """The model of the whole of deal ``d``: validated with the game, or now."""
        form = self.forms[d]
        if type(form) is Parts:
            if form.sheet_only():
                return self.game.deals[d]  # (validated with the loop's keys)
            if self.form_of is None:
                raise DeclineError
            return _deal_model().model_validate(self.form_of(d))
        if DEAL_KEYS.issuperset(form):  # the game has the model of its loop's keys only
            return _deal_model().model_validate(form)
        return self.game.deals[d]

    def either_card(self, d: int, deal: Deal) -> DealResult:
        form = self.forms[d]
        if type(form) is Parts and form.sheet is not None and form.sheet_only():
            return self.sheet_deal(d, deal, form.sheet)
        try:
            parts = form if type(form) is Parts else (
                form_parts(form) if DEAL_KEYS.issuperset(form) else None)
            if parts is not None:
                return replay_parts(self.ruleset, deal.number, deal.dealer, parts)
        except _LOOKUP_ERRORS:
            pass
        # A deal the bulk entry does not take (a score-sheet line, a claim, a fault): the
        # full replay of its model.
        return super().either_card(d, self.model(d))

    def either_dealer(self, d: int, deal: Deal, due: Seat) -> DealResult:
        return super().either_dealer(d, self.model(d), due)

    def sheet_deal(self, d: int, deal: Deal, sheet: tuple[tuple[str, Any], ...]
                   ) -> DealResult:
        """A deal of a score-sheet line only, replayed in full (``deal`` is its whole
        model). Its replay reads nothing of it but the dealer and the line (and its number,
        for messages), so the result of a clean one is kept by those and reused."""
        key = (deal.dealer, sheet)
        kept = self.sheets.get(key)
        if kept is not None:
            return kept.again(deal.number)
        emitted = self.emitted
        result = super().either_card(d, deal)
        if self.emitted == emitted:
            if len(self.sheets) > _KEPT:
                self.sheets.clear()
            self.sheets[key] = replace(result, totals={}, penalties=[])
        return result


_SHEETS: dict[Ruleset, dict[tuple[Seat, tuple[tuple[str, Any], ...]], DealResult]] = {}
"""The results of clean score-sheet deals (:meth:`_BulkReplay.sheet_deal`), by ruleset."""
_KEPT = 4096
"""How many rulesets, and results a ruleset, :data:`_SHEETS` keeps at most."""


def _game(game: dict[str, Any], source: SourceMap | None = None, declines: bool = True
          ) -> GameReport | None:
    deals = game.get("deals", ())
    if type(deals) is not list:
        return None
    return _BulkReplay(loop_model(game), deals, source, declines).run()


_HEAD_KEYS = DEAL_KEYS - {"penalties"}
"""What a deal whose loop keys :func:`~euchrelog.head.read_head` reads may have."""


def loop_model(game: dict[str, Any], plain: bool = True) -> Game:
    """What the game loop reads of ``game`` (its JSON form): read plainly, without the
    models (:func:`~euchrelog.head.read_head`), where it reads so; else (or when not
    ``plain``: a game the reader knows the head declines) the models of the loop's keys
    (the acts of a deal the bulk entry takes are its own), validated."""
    if plain:
        try:
            # (the head has every attribute of a Game the loop reads, and the fast path's
            # replay asks a deal's model of the parts or the form, not of the head)
            return cast("Game", read_head(game, _HEAD_KEYS))
        except (Decline, ValueError):
            pass
    if not plain:  # (the form of the parts reader, whose deals hold the loop's keys only,
        # the models of its points lines made: see parts.modelled)
        return _game_model().model_validate(game)
    deals = []
    for deal in game.get("deals", ()):
        kept = {k: deal[k] for k in LOOP_KEYS if k in deal} if DEAL_KEYS.issuperset(
            deal) else deal
        if type(kept) is dict:
            score = kept.get("score")
            if type(score) is ScoreHead:  # (a points line the reader read plainly)
                kept = {**kept, "score": _SCORES.get(score) or _score_model(score)}
        deals.append(kept)
    return _game_model().model_validate({**game, "deals": deals})


@functools.cache
def _game_model() -> type[Game]:
    """The model of a game, imported when a game first needs it (a clean one-game check
    imports no pydantic), and kept: an import statement in a function runs at each call."""
    from .models import Game

    return Game


@functools.cache
def _deal_model() -> type[Deal]:
    """The model of a deal, imported when a deal first needs it (see :func:`_game_model`)."""
    from .models import Deal

    return Deal


def _score_model(score: ScoreHead) -> Any:
    """The model of a points line the reader read plainly, kept (the reader keeps each
    line's :class:`~euchrelog.head.ScoreHead`, so they recur)."""
    from .models import Score

    if len(_SCORES) > _KEPT:
        _SCORES.clear()
    model = _SCORES[score] = Score.model_validate(
        {k: v for k, v in (("points", score.points), ("total", score.total)) if v is not None})
    return model


_SCORES: dict[ScoreHead, Any] = {}
"""The model of each points line the reader read plainly (:func:`loop_model`; the reader
keeps each line's, so they recur)."""


def replay_parts(ruleset: Ruleset, number: int, dealer: Seat, parts: Parts) -> DealResult:
    """Replays one deal through :class:`~euchrelog.engine.DealState`'s bulk entry; raises
    :class:`~euchrelog.bulk.DeclineError` (or a lookup error) at anything the bulk entry
    does not take."""
    if parts.sheet is not None:
        raise DeclineError  # the score-sheet line: the full replay checks it
    variant = ruleset.variant
    hands = parts.hands
    dealt: list[Card | None] = []
    if hands:  # else a play-only record
        seats = ruleset.seats
        size = variant.hand_size
        if len(hands) != len(seats):
            raise DeclineError
        for seat in seats:
            cards = hands[seat]  # a KeyError: D303
            if len(cards) != size:
                raise DeclineError  # D303, D306
            dealt += cards
    extra: list[Card | None] | None = None
    if parts.extra is not None:
        kind, extra = parts.extra
        if kind != ruleset.extra_hand or len(extra) != ruleset.extra_size:
            raise DeclineError  # D303
        dealt += extra
    upcard = kitty = None
    if variant.upcard:
        if parts.up is None:
            raise DeclineError
        upcard, kitty = parts.up
        if kitty is not None and len(kitty) != ruleset.kitty_size:
            raise DeclineError
        dealt += [upcard, *(kitty or ())]
    elif parts.up is not None:
        raise DeclineError  # D306
    if not dealt_cleanly(dealt, ruleset.options.deck):
        raise DeclineError  # D304, D305
    state = DealState(ruleset, dealer, hands=hands, upcard=upcard, kitty=kitty, extra=extra)
    if not state.run(parts.acts, parts.tricks):
        raise DeclineError  # a fault: the full path reports it
    if state.phase is Phase.THROWN:
        if len(parts.acts) > parts.bids or parts.tricks:
            raise DeclineError
        return DealResult(number, dealer, {}, {}, thrown=True)
    points = state.points()
    if points is None or state.trump is None:
        raise DeclineError  # P706, or a partial deal
    return DealResult(number, dealer, points, {}, maker=state.maker,
                      trump=state.trump.value, lone=state.alone,
                      defender_alone=state.defender is not None,
                      maker_tricks=state.maker_tricks(), bid_round=state.fixed_in_round,
                      defender=state.defender)


# ------------------------------------------------------------------ entries


def verify_json(text: str) -> GameReport | None:
    """The report of one game of JSON Lines, if the fast path covers it and finds it clean;
    otherwise ``None``."""
    if ("\\u" in text and "\\ud" in text.lower()) or not (text.isascii() or _encodable(text)):
        return None  # perhaps a lone surrogate: the full path decides
    try:
        # (not kinds.json_value, whose walk of every value for nesting too deep is a tenth
        # of a deal's time: the fast path reads every value by its shape or its model, and
        # declines one nested deeper than a game's; test_fast holds it to that)
        game = json.loads(text)
    except (ValueError, RecursionError):  # not JSON, a number too long, too deep for C
        return None
    return replay_game(game) if type(game) is dict else None


def replay_form(read: GameForm) -> GameReport | None:
    """The report of one game read from notation (:func:`~euchrelog.notation.read_game`),
    if the fast path covers it and finds it clean; otherwise ``None``."""
    return replay_game(read.form)


def check_form(read: GameForm) -> GameReport | None:
    """The report of one game read from notation, findings and all, each placed by the
    game's source map: the deals the bulk entry takes are replayed by it, the others by the
    full replay of their models. ``None`` for a game whose models do not validate, which
    the full path reports."""
    try:
        return _game(read.form, read.source, declines=False)
    except _LOOKUP_ERRORS:
        return None


def check_notation(text: str, first_line: int = 1) -> tuple[GameReport, int] | None:
    """The report of one game of notation, findings and all, and its number of deals, read
    straight into the bulk entry's parts (:func:`~euchrelog.bulk.read_parts`: no JSON form
    of a deal but of one the bulk entry does not take, whose model the full replay
    replays); ``None`` for a game the parts do not cover, or whose models do not validate,
    which :func:`~euchrelog.notation.read_game` and :func:`check_form` then read and
    replay."""
    try:
        read = read_parts(text, first_line)
        if read is None:
            return None
        model = loop_model(read.game.form, read.plain)
        report = _BulkReplay(model, read.parts, read.game.source, False, read.form_of).run()
    except (NotationError, *_LOOKUP_ERRORS):
        return None
    return report, len(read.parts)


def verify_notation(text: str) -> GameReport | None:
    """The report of one game of notation, if it reads and the fast path covers it and
    finds it clean; otherwise ``None``."""
    done = check_notation(text)
    if done is not None:
        return None if done[0].findings else done[0]
    try:
        read = read_game(text)
    except NotationError:
        return None
    return None if isinstance(read, list) else replay_form(read)


def _encodable(text: str) -> bool:
    """Whether the text can be written as UTF-8 (a lone surrogate cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
