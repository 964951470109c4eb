"""What a hand-built Sheep 'n' Sheep position must be (`SheepNSheepState.from_position`),
checked before it is played: each a ValueError naming the first thing no game holds,
since the engine would otherwise play on from it against the rules (a card laid on
another, sets formed after the end, a seat left with no legal action)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields

from games.sheep_n_sheep.actions import Cell
from games.sheep_n_sheep.cards import DECK_SIZE, NUMBER
from games.sheep_n_sheep.cells import REACH
from games.sheep_n_sheep.legal import MARKET_SETS, PHASES
from games.sheep_n_sheep.observation import Placement

__all__ = [
    "check_cells",
    "check_deck_beside_stock",
    "check_deck_end",
    "check_each_card_once",
    "check_market_end",
    "check_market_full",
    "check_market_short",
    "check_placement",
    "check_placement_shown",
    "check_seen_in_hands",
    "check_shape",
    "check_stock",
    "check_turns",
]


def check_each_card_once(cards: list[int]) -> None:
    """A built position names each card at most once, and only real cards."""
    seen: set[int] = set()
    for card in cards:
        if not (type(card) is int and 0 <= card < DECK_SIZE):
            raise ValueError(f"card {card!r} is no card: ids are 0 to {DECK_SIZE - 1}")
        if card in seen:
            raise ValueError(f"card {card} is in the position twice")
        seen.add(card)


def check_cells(pastures: Sequence[Mapping[Cell, int]]) -> None:
    """A built pasture's cells are pairs of whole numbers within REACH of the
    origin: a cell beyond the packed keys' range would land on another cell."""
    for pasture in pastures:
        for cell in pasture:
            if not (
                isinstance(cell, tuple)
                and len(cell) == 2
                and all(type(v) is int and -REACH <= v <= REACH for v in cell)
            ):
                raise ValueError(
                    f"cell {cell!r} is not a pasture cell: x and y are whole numbers"
                    f" from {-REACH} to {REACH}"
                )


def check_shape(
    players: int, hands: int, sets: int, pastures: Sequence[object] | None, seat: int
) -> None:
    """A built position has 2 to 4 players, a hand (and a pasture) per seat, at
    most MARKET_SETS sets and a seat to move among them."""
    if type(players) is not int or players not in (2, 3, 4):
        raise ValueError(f"{players!r} players: Sheep 'n' Sheep takes 2 to 4")
    if hands != players or (pastures is not None and len(pastures) != players):
        raise ValueError(f"{players} players need {players} hands and pastures")
    if sets > MARKET_SETS:
        raise ValueError(f"{sets} market sets: at most {MARKET_SETS}")
    if type(seat) is not int or not 0 <= seat < players:
        raise ValueError(f"seat {seat!r} is not one of 0 to {players - 1}")


def check_deck_end(deck: Sequence[int], last_turn: int | None) -> None:
    """The end is triggered by a refill that finds fewer than 2 cards in the deck,
    and the deck never grows: once there is a last turn, it holds 1 card at most.
    A deck of 2 or more after the trigger is a position no game reaches, and one
    that went on forming sets from it (with 4 players, none is formed after the
    trigger; with 2-3 they come from the stock)."""
    if last_turn is not None and len(deck) >= 2:
        raise ValueError(
            f"a deck of {len(deck)} with a last turn: the end is triggered when a refill"
            " finds fewer than 2 cards in the deck, so after it the deck holds 1 at most"
        )


def check_deck_beside_stock(deck: int, stock: int, last_turn: int | None) -> None:
    """With 2-3 players the refill that triggers the end, finding 1 card in the
    deck, makes a set of it and a stock card; the deck keeps it only when the
    stock is empty, and neither grows. A card in the deck beside a stock after
    the trigger is a position no game reaches."""
    if last_turn is not None and deck and stock:
        raise ValueError(
            f"a deck of {deck} and a stock of {stock} with a last turn: the refill that"
            " triggers the end makes a set of the deck's last card and a stock card, so"
            " after it the deck holds a card only once the stock is empty"
        )


def check_stock(players: int, stock: Sequence[int]) -> None:
    """Only 2 and 3 players set a stock aside; with 4 the whole deck is the deck."""
    if players == 4 and stock:
        raise ValueError(
            f"a stock of {len(stock)} with 4 players: 4 players have no stock (the whole"
            " deck is the deck), only 2 and 3 players set one aside"
        )


def check_market_end(sets: int, last_turn: int | None) -> None:
    """The market only holds fewer than MARKET_SETS sets once a set could not be
    replaced, and that same refill triggers the end: a short market without a
    last turn is a position no game reaches (and one nobody could end)."""
    if sets < MARKET_SETS and last_turn is None:
        raise ValueError(
            f"{sets} market sets without a last turn: the market holds fewer than"
            f" {MARKET_SETS} sets only after the end is triggered, so give the position"
            " a last_turn"
        )


def check_market_full(players: int, sets: int, last_turn: int | None) -> None:
    """With 4 players the refill that triggers the end forms no set (there is no
    stock) and none is formed after it: once there is a last turn, the market
    holds MARKET_SETS - 1 sets at most. A full market with a last turn is a
    position no game reaches, whose final round offered a set never replaced."""
    if players == 4 and sets == MARKET_SETS and last_turn is not None:
        raise ValueError(
            f"{sets} market sets with 4 players and a last turn: with 4 players the"
            " refill that triggers the end forms no set, so after it the market holds"
            f" {MARKET_SETS - 1} sets at most"
        )


def check_market_short(players: int, sets: int, deck: int, stock: int) -> None:
    """With 2-3 players a set taken is replaced from the deck, then the stock,
    and goes unreplaced only when the two together hold fewer than 2 cards;
    neither ever grows, so a short market with 2 cards left in them is a
    position no game reaches (and one whose market stayed short against 'draw
    cards from the stock to replenish the sets for the rest of the game')."""
    if players < 4 and sets < MARKET_SETS and deck + stock >= 2:
        raise ValueError(
            f"{sets} market set{'' if sets == 1 else 's'} with {deck + stock} cards in the"
            f" deck and stock: with {players} players a set goes unreplaced only once the"
            " deck and the stock together hold fewer than 2 cards"
        )


def check_turns(players: int, seat: int, turn: int, last_turn: int | None, phase: str) -> None:
    """Turn t is seat t mod N's (seat 0 starts, turns go round), the game's last
    turn is the last of a round, not already past and no later than the end of
    the round after the previous turn's, the phase is one of PHASES,
    and a game is over only once its last turn is played: anything else is a
    position no game reaches."""
    if phase not in PHASES:
        raise ValueError(f"phase {phase!r} is not one of {', '.join(PHASES)}")
    if type(turn) is not int or turn < 0 or turn % players != seat:
        raise ValueError(f"turn {turn!r} is not seat {seat}'s: turn t is seat t mod {players}")
    if last_turn is not None and (
        type(last_turn) is not int or last_turn < turn or last_turn % players != players - 1
    ):
        raise ValueError(
            f"last turn {last_turn!r} must be turn {turn} or later and the turn of seat"
            f" {players - 1}, the last of a round"
        )
    # The trigger at turn t sets the last turn to the end of the round after
    # t's, and t is an earlier turn than this one (taking the set that triggers
    # it ends the turn): no last turn lies further ahead. With seat 0 to move
    # that is the end of this round.
    limit = ((turn - 1) // players + 2) * players - 1
    if last_turn is not None and last_turn > limit:
        raise ValueError(
            f"last turn {last_turn!r} is past turn {limit}: the end comes at the end of"
            " the round after the one that triggered it, in a turn before this one, so"
            f" at turn {turn} the last turn is {limit} at most"
        )
    if phase == "over" and last_turn != turn:
        raise ValueError(
            f"phase 'over' at turn {turn} with last turn {last_turn!r}: the game ends when"
            " its last turn ends, so an 'over' position is at its last turn"
        )


def check_placement(
    phase: str, placement: Placement | None, pasture: Mapping[Cell, int], cards: Sequence[int]
) -> None:
    """A placement in progress is one a game reaches: its kind is the phase's, the
    hand can go on (a discard needs 2 cards, every other step 1), and a same-number
    or run placement either has no start and an empty pasture (its first card goes
    to (0, 0)) or starts from a card of the pasture, with tips on the pasture and
    the numbers those cards have (a run begun on an empty pasture has no down
    tip), and a card of the hand `cards` to place first
    next to it if none is placed yet (it cannot stop before one). Anything else
    laid a card on top of another (the one at (0, 0)), offered numbers the tip
    does not lead to, or left the seat with no legal action."""
    if phase in ("turn", "over"):
        if placement is not None:
            raise ValueError(f"a placement in phase {phase!r}: only a placement phase has one")
        return
    if placement is not None and placement.kind != phase:
        raise ValueError(f"a {placement.kind!r} placement in phase {phase!r}")
    need = 2 if phase == "discard" else 1
    hand = len(cards)
    if hand < need:
        raise ValueError(
            f"{hand} card{'' if hand == 1 else 's'} in hand in phase {phase!r}: a"
            f" {phase} step needs {need}, and a placement ends once the hand is empty"
        )
    if phase in ("discard", "free"):
        return
    start = None if placement is None else placement.start
    if start is None:
        if pasture:
            raise ValueError(
                f"a {phase} placement with no start is one begun on an empty pasture, but"
                " the seat's pasture has cards: name its start, a card of the pasture"
            )
        if placement is not None and (placement.placed or placement.tip or placement.up_tip):
            raise ValueError(f"a {phase} placement with no start has no card placed yet")
        return
    assert placement is not None
    for name, cell in (
        ("start", start),
        ("tip", placement.tip),
        ("up tip", placement.up_tip),
        ("down tip", placement.down_tip),
    ):
        if cell is not None and cell not in pasture:
            raise ValueError(f"the placement's {name} {cell} is no card of the seat's pasture")
    if phase == "same":
        number = NUMBER[pasture[start]]
        if placement.tip is None:
            raise ValueError("a same-number placement with a start has no tip: give its tip")
        if placement.number != number or NUMBER[pasture[placement.tip]] != number:
            raise ValueError(
                f"a same-number placement from a {number} places {number}s: number"
                f" {placement.number!r}, tip a {NUMBER[pasture[placement.tip]]}"
            )
        _check_placed(placement, len(pasture), [placement.tip], "its tip at its start")
        _check_first_card(placement, pasture, cards, [number])
        return
    up_tip, down_tip = placement.up_tip, placement.down_tip
    if up_tip is None:
        raise ValueError("a run with a start has an up tip (the start before its first card)")
    _check_placed(placement, len(pasture), [up_tip, down_tip], "both tips at its start")
    up = 5 if placement.up_next is None else placement.up_next - 1
    if NUMBER[pasture[up_tip]] != up:
        raise ValueError(
            f"the run's up tip is a {NUMBER[pasture[up_tip]]}: up next"
            f" {placement.up_next!r} does not follow it"
        )
    if down_tip is None:
        if len(pasture) > placement.placed:
            raise ValueError(
                "a run from a card of the pasture grows both ways: give its down tip (the"
                " start before its first descending card)"
            )
        return
    if placement.placed == len(pasture):
        raise ValueError(
            "a run that placed every card of the pasture began on an empty pasture, so it"
            " has no descending branch (its start is the smallest card of the run): give"
            " it no down tip"
        )
    down = 1 if placement.down_next is None else placement.down_next + 1
    if NUMBER[pasture[down_tip]] != down:
        raise ValueError(
            f"the run's down tip is a {NUMBER[pasture[down_tip]]}: down next"
            f" {placement.down_next!r} does not follow it"
        )
    _check_first_card(placement, pasture, cards, [placement.up_next, placement.down_next])


def check_placement_shown(placement: Placement, shown: Placement) -> None:
    """A built placement is one 'as an observation shows it': `shown` is how the
    position's observation shows it once resumed (a discard or free step as a
    game shows one: no start, no card placed). A field a game never shows so
    (a same-number placement's `up_next`, a run's `number`, a discard's start)
    was otherwise dropped without a word, the position showing another placement
    than the one given."""
    for field in fields(Placement):
        given, kept = getattr(placement, field.name), getattr(shown, field.name)
        if given != kept:
            raise ValueError(
                f"the {placement.kind} placement's {field.name} {given!r} is one no game"
                f" shows: an observation of this placement shows {kept!r} there"
            )


def _check_placed(placement: Placement, cards: int, tips: list[Cell | None], at_start: str) -> None:
    """The cards a placement has placed fit its tips and its pasture of `cards`
    cards: each card placed moves a tip off the start (the first card of an
    empty pasture is the start itself), none was placed before the first, they
    are cards of the pasture, and all of them means it began on an empty
    pasture, whose first card is at (0, 0)."""
    placed, start = placement.placed, placement.start
    off_start = [tip for tip in tips if tip is not None and tip != start]
    if placed > cards:
        raise ValueError(
            f"{placed} cards placed by a placement on a pasture of {cards}: the cards it"
            " placed are in the pasture"
        )
    if placed == cards:
        if start != (0, 0):
            raise ValueError(
                f"a placement that placed every card of the pasture began on an empty"
                f" pasture, so its start is its first card, at (0, 0), not {start}"
            )
    elif placed == 0 and off_start:
        raise ValueError(
            f"a placement with no card placed yet has a tip at {off_start[0]}, off its"
            f" start {start}: a tip moves only when a card is placed"
        )
    elif placed and not off_start:
        raise ValueError(
            f"a placement from a card of the pasture that placed {placed} card"
            f"{'' if placed == 1 else 's'} has {at_start}: each card placed moves a tip"
        )


def _check_first_card(
    placement: Placement, pasture: Mapping[Cell, int], cards: Sequence[int], wanted: list
) -> None:
    """A placement from a card of the pasture is begun only when a card of the
    hand can follow the start, and it cannot stop before its first card: with
    none placed yet, the hand holds a `wanted` number and the start a free side."""
    if placement.placed or placement.start is None:
        return
    x, y = placement.start
    free = any(cell not in pasture for cell in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)))
    if not free or not any(NUMBER[card] in wanted for card in cards):
        numbers = " or ".join(str(n) for n in wanted if n is not None) or "none"
        raise ValueError(
            f"a {placement.kind} placement from {placement.start} with no card placed yet,"
            f" but no card of the hand can be its first (numbers {numbers}"
            f"{'' if free else ', and the start has no free side'}): a placement is begun"
            " only when a card can follow, and cannot stop before one"
        )


def check_seen_in_hands(hands: Sequence[Sequence[int]], seen: Sequence[Sequence[int]]) -> None:
    """What everybody saw a seat take from the market is in that seat's hand: a
    card named for a seat that does not hold it (in the deck, say) was taken as
    known to all, and placing its copies showed other ids than a game would."""
    if len(seen) > len(hands):
        raise ValueError(f"seen_in_hands names {len(seen)} seats: this table has {len(hands)}")
    for seat, (hand, cards) in enumerate(zip(hands, seen, strict=False)):
        for card in cards:
            if card not in hand:
                raise ValueError(
                    f"seen_in_hands: card {card!r} is not in seat {seat}'s hand, and only"
                    " cards a seat holds were seen taken into it"
                )
