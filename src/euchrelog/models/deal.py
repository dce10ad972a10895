"""The model of one deal, whose acts after the bidding (:attr:`Deal.acts`) the JSON form
writes as ``exchange`` and ``declarations``."""

from __future__ import annotations

from typing import Any

from pydantic import (
    ConfigDict,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidatorFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import InitErrorDetails

from ..acts import WrittenExchange, act_kind
from .fields import Line, Ordinal, SeatField
from .lines import (
    Act,
    Bid,
    Bidding,
    Claim,
    Declaration,
    Exchange,
    Extra,
    Hands,
    Merge,
    Penalty,
    Score,
    Sheet,
    Trick,
    Upcard,
)

_JSON_ACTS = frozenset({"exchange", "declarations"})
"""The keys of a deal's JSON form that hold its :attr:`Deal.acts`."""
_LATE = ("an exchange among the declarations is one written after the merge; before it, it "
         "is the deal's exchange")


def _canonical(acts: Any) -> Any:
    """``acts`` (as given in Python) with the exchange first, unless a merge comes before it:
    the order of the exchange and lone declarations is free (RULES.md)."""
    if not isinstance(acts, list | tuple) or len(acts) < 2:
        return acts
    kinds = [act_kind(a) for a in acts]
    if "exchange" not in kinds:
        return acts
    k = kinds.index("exchange")
    if k == 0 or "merge" in kinds[:k]:
        return acts
    return (acts[k], *acts[:k], *acts[k + 1:])


def _json_loc(loc: tuple[int | str, ...], first: int) -> tuple[int | str, ...]:
    """The place in the JSON form of an error at ``loc`` of a deal read from it, whose
    ``exchange`` is the first of the acts when ``first`` is 1."""
    if loc[:1] != ("acts",):
        return loc
    if len(loc) < 2 or not isinstance(loc[1], int):
        return ("declarations", *loc[1:])
    if loc[1] < first:
        return ("exchange", *loc[3:])  # (without the index and the act's kind)
    return ("declarations", loc[1] - first, *loc[2:])


def _json_form_schema(schema: dict[str, Any]) -> None:
    """The JSON schema of a deal as its JSON form writes it: ``exchange`` and
    ``declarations`` in place of ``acts``."""
    properties: dict[str, Any] = schema["properties"]
    acts: dict[str, Any] = properties["acts"]
    exchange = next(item for item in acts["items"]["oneOf"]  # (its reference, as generated)
                    if "Exchange" in item["$ref"])
    form: dict[str, Any] = {}
    for name, value in properties.items():
        if name == "acts":
            form["exchange"] = {"anyOf": [exchange, {"type": "null"}], "default": None}
            form["declarations"] = {**acts, "title": "Declarations"}
        else:
            form[name] = value
    schema["properties"] = form


class Deal(Line):
    """One deal, from the deal line to the points."""

    model_config = ConfigDict(json_schema_extra=_json_form_schema)

    number: Ordinal
    dealer: SeatField
    hands: tuple[Hands, ...] = ()
    extra: Extra | None = None
    up: Upcard | None = None
    bidding: tuple[Bidding, ...] = ()
    acts: tuple[Act, ...] = ()
    """What the dealer, the maker and the defenders do between the bidding and the first
    lead, in the order written: the exchange, the dummy merge and lone declarations. The
    exchange comes first (the order of the exchange and lone declarations is free, and the
    model puts it first), unless it was written after the merge (a breach of X5 that the
    replay reports, K501): it then keeps its place. The JSON form writes the acts as
    ``exchange`` (the exchange, when it comes first) and ``declarations`` (the others)."""
    sheet: Sheet | None = None
    tricks: tuple[Trick, ...] = ()
    claims: tuple[Claim, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    score: Score | None = None

    @model_validator(mode="after")
    def _once_each(self) -> Deal:
        if len(self.hands) > 1:  # (one line names each seat once)
            seats = [seat for line in self.hands for seat in line.cards]
            if len(seats) != len(set(seats)):
                raise ValueError("a seat's hand is written once in a deal")
        acts = self.acts
        if len(acts) < 2:
            return self
        if sum(isinstance(a, Merge) for a in acts) > 1:
            raise ValueError("a deal has one merge")
        exchanges = [k for k, a in enumerate(acts) if isinstance(a, Exchange)]
        if len(exchanges) > 1:
            raise ValueError("a deal has one exchange")
        if exchanges and exchanges[0] > 0 and not any(
                isinstance(a, Merge) for a in acts[:exchanges[0]]):
            raise ValueError(_LATE)
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _json_form_in(cls, data: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        if not isinstance(data, dict) or _JSON_ACTS.isdisjoint(data):
            if isinstance(data, dict) and "acts" in data:
                data = {**data, "acts": _canonical(data["acts"])}
            return handler(data)
        if "acts" in data:
            raise ValueError("a deal gives its acts as acts, or as exchange and declarations "
                             "(its JSON form), not both")
        exchange = data.get("exchange")
        rest = data.get("declarations", ())
        form = {key: value for key, value in data.items() if key not in _JSON_ACTS}
        first = int(exchange is not None and isinstance(rest, list | tuple))
        if first:
            form["acts"] = [WrittenExchange(exchange) if isinstance(exchange, dict)
                            else exchange, *rest]
        else:
            form["acts"] = rest
            if exchange is not None:  # (beside declarations that are not a list)
                form["exchange"] = exchange
        try:
            deal = handler(form)
        except ValidationError as exc:
            raise ValidationError.from_exception_data(exc.title, [
                InitErrorDetails(type=e["type"], loc=_json_loc(e["loc"], first),
                                 input=e["input"], ctx=e.get("ctx", {}))
                for e in exc.errors()]) from None
        if not first and deal.acts and isinstance(deal.acts[0], Exchange):
            raise ValueError(_LATE)
        return deal

    @model_serializer(mode="wrap")
    def _json_form_out(self, handler: SerializerFunctionWrapHandler,
                       info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if "acts" not in data:
            return data
        form: dict[str, Any] = {}
        for key, value in data.items():
            if key != "acts":
                form[key] = value
                continue
            first = self.exchange is not None and not self.late_exchange
            if first or not (info.exclude_defaults or info.exclude_none):
                form["exchange"] = value[0] if first else None
            rest = value[1:] if first else value
            if rest or not info.exclude_defaults:
                form["declarations"] = rest
        return form

    @property
    def exchange(self) -> Exchange | None:
        """The deal's exchange, wherever it was written (``None`` if it has none)."""
        for act in self.acts:
            if isinstance(act, Exchange):
                return act
        return None

    @property
    def late_exchange(self) -> bool:
        """Whether the deal's exchange was written after the merge (a breach of X5, K501)."""
        return bool(self.acts) and not isinstance(self.acts[0], Exchange) and (
            self.exchange is not None)

    @property
    def merge(self) -> Merge | None:
        """The dummy merge, if any."""
        for act in self.acts:
            if isinstance(act, Merge):
                return act
        return None

    @property
    def declarations(self) -> tuple[Declaration, ...]:
        """The lone declarations (``alone`` and ``defend``), in the order made."""
        return tuple(a for a in self.acts if isinstance(a, Declaration))

    @property
    def bids(self) -> tuple[Bid, ...]:
        """Every bid of the deal, across its ``bid`` lines."""
        if len(self.bidding) == 1:
            return self.bidding[0].bids
        return tuple(b for line in self.bidding for b in line.bids)


