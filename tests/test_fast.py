"""The fast path of ``check`` against the full one (differential tests, derandomized).

The fast path (:mod:`euchrelog.fast`) may only ever say "clean, and here is the report";
everything else it leaves to the full grammar and engine. So for any input at all: when
the fast path gives a report, the full path finds nothing and gives the same report. And
it must not leave the common case to the full path: a canonical full four-hand record is
taken by the fast path.
"""

from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchrelog.check import check_chunk, notation_chunks
from euchrelog.fast import replay_game, verify_json, verify_notation
from euchrelog.generate import Detail, random_game
from euchrelog.kinds import MAX_DEPTH
from euchrelog.models import Game, Start
from euchrelog.notation.jsonio import game_to_json
from euchrelog.notation.writer import dumps_game
from euchrelog.replay import replay
from euchrelog.rules import FOUR_HAND, Options, Ruleset, find_variant
from euchrelog.sources import Chunk
from strategies import VARIANT_NAMES, games
from support.fuzzing import mutated_records
from support.records import random_ruleset, respell
from support.slips import KINDS, slips

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_FILES = sorted((ROOT / "samples").rglob("*.euchre"))

DIFF = settings(derandomize=True, deadline=None, database=None, max_examples=40,
                suppress_health_check=list(HealthCheck))

ALL_DETAILS: tuple[Detail, ...] = ("full", "play-only", "score-sheet", "unknown-cards")


def agree(text: str, *, json: bool = False) -> bool:
    """Checks one game both ways; a fast report must be the full path's, with no finding.
    Returns whether the fast path took the game."""
    chunk = Chunk(1, 1, text, None, json=json)
    quick = verify_json(text) if json else verify_notation(text)
    full = check_chunk(chunk, fast=False)
    if quick is None:
        return False
    assert full.findings == [], (full.findings, text)
    assert full.report == quick
    assert check_chunk(chunk) == full
    return True


@settings(DIFF, max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), who=st.sampled_from(("N", "EW", "S")),
       same_dealer=st.booleans())
def test_penalties_and_same_dealer_redeals_take_the_fast_path(seed: int, who: str,
                                                              same_dealer: bool) -> None:
    """A penalty line (H6) and a re-deal by the same dealer (H4) are replayed by the fast
    path with the ruleset's own rules (``side_of``, ``next_dealer``, ``counts``,
    ``outcome``), to the full path's report."""
    options = Options(deals=4, pass_out="same-dealer" if same_dealer else "next-dealer")
    game = random_game(random.Random(seed), Ruleset(FOUR_HAND, options))
    text = re.sub(r"  total [^\n]*", "", dumps_game(game))
    text = text.replace("\ndeal 2 ", f"  penalty {who} 1 table talk\n\ndeal 2 ", 1)
    text = re.sub(r"\nresult[^\n]*", "", text)
    assert "penalty" in text
    assert agree(text)


@settings(DIFF, max_examples=20)
@given(seed=st.integers(0, 2**32 - 1), deck=st.sampled_from((24, 32)))
def test_canadian_loner_and_no_trump_take_the_fast_path(seed: int, deck: int) -> None:
    """Full records under ``canadian-loner`` (H3, ``Ruleset.must_go_alone``) and
    ``no-trump`` (H5, the ranking tables built for no trump too) are replayed by the fast
    path, to the full path's report."""
    options = Options(deck=deck, canadian_loner=True, no_trump=True)
    game = random_game(random.Random(seed), Ruleset(FOUR_HAND, options))
    assert agree(dumps_game(game))
    assert agree(game_to_json(game), json=True)


@settings(DIFF, max_examples=30)
@given(seed=st.integers(0, 2**32 - 1), spelling=st.integers(0, 2**32 - 1))
def test_hand_typed_full_records_take_the_fast_path(seed: int, spelling: int) -> None:
    """Comments, other case and spacing, ``10h`` and suit symbols change nothing: a clean
    full record as a person types it is proved clean as fast as a canonical one."""
    text = dumps_game(random_game(random.Random(seed)))
    assert agree(respell(text, random.Random(spelling), notes=0.5))


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@DIFF
@given(data=st.data())
def test_generated_games_agree(variant: str, data: st.DataObject) -> None:
    game = data.draw(games(ALL_DETAILS, variant=variant))
    agree(dumps_game(game))
    agree(game_to_json(game), json=True)


@DIFF
@given(seed=st.integers(0, 2**32 - 1), deck=st.sampled_from((24, 32)),
       stick=st.booleans(), lone_lead=st.sampled_from(("maker-left", "dealer-left")),
       loner=st.sampled_from((2, 3, 4)), scoring=st.sampled_from(("defenders", "set")))
def test_full_four_hand_records_take_the_fast_path(seed: int, deck: int, stick: bool,
                                                   lone_lead: str, loner: int,
                                                   scoring: str) -> None:
    """H1 and H2 (the ruleset's points) are on the fast path too."""
    options = Options(deck=deck, stick_the_dealer=stick, lone_lead=lone_lead,  # type: ignore[arg-type]
                      euchred_loner=loner, euchre_scoring=scoring)  # type: ignore[arg-type]
    game = random_game(random.Random(seed), Ruleset(FOUR_HAND, options))
    assert agree(dumps_game(game))
    assert agree(game_to_json(game), json=True)


@pytest.mark.parametrize("variant", ["cutthroat", "three-hand", "ghost", "two-hand"])
@settings(DIFF, max_examples=10)
@given(seed=st.integers(0, 2**32 - 1))
def test_full_records_of_other_variants_take_the_fast_path(variant: str, seed: int) -> None:
    assert agree(_game_text(seed, variant))


def _game_text(seed: int, variant: str = "four-hand") -> str:
    kind = find_variant(variant)
    return dumps_game(random_game(random.Random(seed), Ruleset(kind, Options.defaults(kind))))


TOKEN = re.compile(r"\b(?:[789TJQKA][CDHS]|JK|NS|EW|[NESW]|\d+|pass|order|call|alone|defend"
                   r"|takes|discards|declines|merges|points|total|result|winner|unfinished|bid|swap)\b")

SWAPS = {"pass": ("order", "call H"), "order": ("pass",), "alone": ("defend",),
         "defend": ("alone",), "takes": ("discards",), "merges": ("takes",), "points": ("total",),
         "total": ("points",), "result": ("unfinished",), "unfinished": ("result",),
         "bid": ("call H", "pass"), "swap": ("pass", "bid 4")}
CARDS = [r + s for r in "9TJQKA78" for s in "CDHS"] + ["JK"]


def _mutate(text: str, rng: random.Random) -> str:
    """One change that keeps the text canonical-looking: a token replaced by another of its
    kind, or a line deleted, doubled or moved."""
    lines = text.split("\n")
    if rng.random() < 0.25 and len(lines) > 3:
        k = rng.randrange(len(lines))
        how = rng.randrange(3)
        if how == 0:
            del lines[k]
        elif how == 1:
            lines.insert(k, lines[k])
        else:
            lines.insert(rng.randrange(len(lines)), lines.pop(k))
        return "\n".join(lines)
    spots = list(TOKEN.finditer(text))
    m = rng.choice(spots)
    word = m.group()
    if word in SWAPS:
        new = rng.choice(SWAPS[word])
    elif re.fullmatch(r"\d+", word):
        new = str(max(0, int(word) + rng.choice((-2, -1, 1, 2, 10))))
    elif word in ("NS", "EW"):
        new = rng.choice(("NS", "EW", "N", "E"))
    elif len(word) == 1:
        new = rng.choice("NESW")
    else:
        new = rng.choice(CARDS)
    return text[: m.start()] + new + text[m.end():]


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(DIFF, max_examples=150)
@given(seed=st.integers(0, 2**20), mutation=st.integers(0, 2**32 - 1),
       changes=st.integers(1, 3))
def test_canonical_mutations_agree(variant: str, seed: int, mutation: int,
                                   changes: int) -> None:
    """Faults that keep the record canonical are the ones the fast grammar lets through:
    the fast replay must decline every one the full replay reports."""
    rng = random.Random(mutation)
    text = _game_text(seed, variant)
    for _ in range(changes):
        text = _mutate(text, rng)
    agree(text)


@settings(DIFF, max_examples=150)
@given(mutated_records())
def test_mutated_records_agree(text: str) -> None:
    for chunk in notation_chunks(io.StringIO(text)):
        agree(chunk.text)


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=lambda p: p.name)
def test_samples_agree(path: Path) -> None:
    for chunk in notation_chunks(io.StringIO(path.read_text(encoding="utf-8"))):
        agree(chunk.text)


@DIFF
@given(seed=st.integers(0, 2**32 - 1), cut=st.integers(1, 8),
       variant=st.sampled_from(VARIANT_NAMES))
def test_games_recorded_from_the_middle_agree(seed: int, cut: int, variant: str) -> None:
    """A game cut after ``cut`` deals, with a start line giving the totals there, scores as
    the whole game, on both paths: the fast path runs the full path's game loop."""
    kind = find_variant(variant)
    game = random_game(random.Random(seed), Ruleset(kind, Options.defaults(kind)))
    whole = replay(game)
    cut = min(cut, len(game.deals) - 1)
    if cut < 1:
        return
    tail = game.model_copy(update={
        "start": Start(deal=cut + 1, total=whole.deals[cut - 1].totals),
        "deals": game.deals[cut:]})
    text = dumps_game(tail)
    taken = agree(text)
    assert agree(game_to_json(tail), json=True) == taken
    assert taken
    full = check_chunk(Chunk(1, 1, text, None), fast=False)
    assert full.findings == []
    assert full.report is not None
    assert (full.report.totals, full.report.winner) == (whole.totals, whole.winner)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANT_NAMES)
def test_games_with_a_slip_agree_with_the_full_path(variant: str) -> None:
    """``check`` replays each deal of a game with a finding by the bulk entry where it takes
    it and by the full replay of its model where not; the full path alone replays them all
    from models. Both give the same findings, places and report for every kind of slip,
    canonical and hand-typed."""
    rng = random.Random(variant)
    tried = 0
    for detail in ALL_DETAILS:
        game = random_game(random.Random(rng.randrange(2**32)), random_ruleset(rng, variant),
                           detail=detail, stop_after=4)
        by_kind: dict[str, list[str]] = {}
        for slip in slips(dumps_game(game)):
            by_kind.setdefault(slip.kind, []).append(slip.text)
        for kind in KINDS:
            for text in rng.sample(by_kind.get(kind, []), min(2, len(by_kind.get(kind, [])))):
                for written in (text, respell(text, rng)):
                    chunk = Chunk(1, 1, written, None)
                    assert check_chunk(chunk) == check_chunk(chunk, fast=False), written
                    tried += 1
    assert tried >= 40


def test_odd_json_shapes_are_declined() -> None:
    game = random_game(random.Random(5))
    base = Game.model_validate_json(game_to_json(game)).model_dump(mode="json",
                                                                   exclude_defaults=True)
    assert replay_game(base) is not None
    for path, value in ((("deals", 0, "number"), True), (("deals", 0, "number"), 1.0),
                        (("deals", 0, "dealer"), ["N"]), (("deals", 0, "extra_key"), 1),
                        (("tags", 0, "value"), 5), (("deals", 0, "score", "points"), "NS 1"),
                        (("deals", 0, "hands", 0, "cards", "N"), "9C TC JC QC KC")):
        bent = _bent(base, path, value)
        assert replay_game(bent) is None, path


def _bent(data: dict[str, object], path: tuple[object, ...], value: object) -> dict[str, object]:
    import copy

    out = copy.deepcopy(data)
    node: object = out
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    return out


def _nested(depth: int) -> object:
    """A string inside ``depth`` lists, one in another."""
    value: object = "x"
    for _ in range(depth):
        value = [value]
    return value


ODD_VALUES: tuple[object, ...] = (
    None, True, 0, -1, 1.5, "", "N", "9C", "a\nb", "  x  ", [], ["x"], [1], {}, {"a": 1},
    [[["deep"]]], _nested(MAX_DEPTH + 1))
"""Values put anywhere in a game of JSON Lines by :func:`test_bent_json_values_agree` (the
last nests too deeply for any reader, which the fast path declines without a walk)."""


def _nodes(value: object, path: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    """The path of every value within ``value`` (``()``: itself)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _nodes(item, (*path, key))
    elif isinstance(value, list):
        for k, item in enumerate(value):
            found += _nodes(item, (*path, k))
    return found


@pytest.mark.parametrize("variant", VARIANT_NAMES)
@settings(DIFF, max_examples=120)
@given(data=st.data())
def test_bent_json_values_agree(variant: str, data: st.DataObject) -> None:
    """Any value of a game of JSON Lines replaced by a value of another shape, or a comment
    or another key added to any object: the fast path declines what the models refuse
    (found so: comments that are not text, an empty hand, a null suit on a pass, null hands,
    all once called clean)."""
    game = data.draw(games(ALL_DETAILS, variant=variant))
    form = json.loads(game_to_json(game))
    spots = [path for path in _nodes(form) if path]
    path = data.draw(st.sampled_from(spots))
    value = data.draw(st.sampled_from(ODD_VALUES))
    node: Any = form
    for key in path[:-1]:
        node = node[key]
    if isinstance(node[path[-1]], dict) and data.draw(st.booleans()):
        node = node[path[-1]]
        node[data.draw(st.sampled_from(("note", "before", "suit", "kitty", "other")))] = value
    else:
        node[path[-1]] = value
    agree(json.dumps(form), json=True)


@pytest.mark.parametrize("path", [("deals", 0, "tricks", 0, "note"), ("deals", 0, "note"),
                                  ("tags", 0, "value"), ("deals", 0, "hands", 0, "before")])
def test_json_nested_too_deeply_is_declined_where_it_stands(path: tuple[object, ...]) -> None:
    """The fast path reads JSON Lines without a walk for nesting: a value nested too deeply
    anywhere, even in a comment it does not read, is declined, and the full path reports it
    (S102: a game's schema takes no nesting deeper than a game's)."""
    base = json.loads(game_to_json(random_game(random.Random(5))))
    deep = _nested(MAX_DEPTH + 1)
    line = json.dumps(_bent(base, path, deep))
    assert verify_json(line) is None
    found = check_chunk(Chunk(1, 1, line, None, json=True)).findings
    assert [f.code for f in found] == ["S102"]


def test_a_lone_surrogate_is_left_to_the_full_path() -> None:
    """Found by fuzz/run.py (seed 7, input 35788): the fast grammar took a tag value that
    cannot be written as UTF-8, which the full path refuses."""
    text = '[Variant "four-hand"]\n[Event "\udcb5"]\nunfinished\n'
    assert verify_notation(text) is None
    assert [f.code for f in check_chunk(Chunk(1, 1, text, None)).findings] == ["S101"]
    line = '{"tags": [{"name": "Variant", "value": "four-hand"}, {"name": "Event", ' \
           '"value": "\\udcb5"}], "end": {"act": "unfinished"}}'
    assert verify_json(line) is None
