"""Which games a tournament plays: pure, deterministic, no I/O.

- Solo (1 player): every bot plays the same seeds.
- k players (k >= 2): every k-subset of the bots is a *group*; each seed is
  played once in each of the k cyclic seat rotations of the group, so every bot
  meets the same deals from every seat (for k = 2: every pair, seats swapped).
  For k >= 3 each seed is also played in the k rotations of the reversed
  order (`seat_orders` = 2): 2k games, so every bot sits right before every
  other as often as right after it (for k = 3, all 6 seat orders). A
  tournament stored before that keeps playing one order (`seat_orders` = 1).
- For k >= 3, when there are more k-subsets than `max_groups`, a balanced
  incomplete (cyclic) design is used instead (see `balanced_groups`).
- Gauntlet: each named candidate sits with every (k-1)-subset of the rest of
  the field (from k = 4, a balanced design of them past `max_groups`), never
  with another candidate.
- A ladder that grows (`ladder_schedule`): when bots join a stored tournament,
  the games already scheduled stay, and the newcomers get the games of the
  bigger field's schedule that they sit in; bots that left get no games.
- SPRT (`sprt_block`): block i is seed base + i, played in every seat rotation
  of the candidate, the baseline and (k >= 3) k - 2 other bots taken in turn,
  and (k >= 3) again with the candidate and the baseline trading seats.

Every scheduled game has a stable key (seed and bots in seat order) that the
store uses to tell which games are already done, so resuming plays exactly the
missing ones.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from games.words import count

__all__ = [
    "SEAT_ORDERS",
    "ScheduledGame",
    "balanced_groups",
    "game_key",
    "gauntlet_groups",
    "group_count",
    "ladder_schedule",
    "make_groups",
    "make_schedule",
    "seatings_per_seed",
    "seeds",
    "sprt_block",
]


# Seat orders a group of k >= 3 bots plays each seed in: its own and the
# reversed one. 1 (its own alone) is how tournaments stored before were scheduled.
SEAT_ORDERS = 2


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    key: str
    group: int  # index of the group (the k bots that meet) in the schedule
    seed: int
    seats: tuple[str, ...]  # bot name per seat
    # 0..k-1: how far the group's seat order is rotated; k..2k-1: its reversed
    # order, rotated by rotation - k (k >= 3, seat_orders = 2)
    rotation: int
    # The seed drawn for this deal under the tournament's secret (tournament.deals).
    secret_seed: int | None = None
    # The ladder stage (field) that first scheduled the game: 0 for the first
    # field's games, i for those of a bot new to the i-th (tournament.deals).
    field: int = 0

    @property
    def match_seed(self) -> int:
        """The seed the match is created with: the secret one, or else `seed` itself."""
        return self.seed if self.secret_seed is None else self.secret_seed


def game_key(seed: int, seats: Sequence[str]) -> str:
    """The stable identity of a scheduled game: its seed and the bots in seat order."""
    return f"{seed}:{'|'.join(seats)}"


def seeds(base_seed: int, count: int) -> tuple[int, ...]:
    """The deals every group plays: base_seed, base_seed + 1, ..."""
    return tuple(base_seed + index for index in range(count))


def make_groups(bots: Sequence[str], players: int, max_groups: int) -> tuple[tuple[str, ...], ...]:
    """The sets of bots that meet: every k-subset, or a balanced design when too many."""
    if len(set(bots)) != len(bots):
        raise ValueError("bot names must be unique")
    if players < 1 or players > len(bots):
        raise ValueError(f"cannot seat {players} players from {len(bots)} bots")
    if players == 1:
        return tuple((bot,) for bot in bots)
    if players == 2 or math.comb(len(bots), players) <= max_groups:
        return tuple(itertools.combinations(bots, players))
    return balanced_groups(bots, players, max_groups)


def group_count(bots: int, players: int, max_groups: int) -> int:
    """How many groups `make_groups` makes for `bots` bots, without making them."""
    if players < 1 or players > bots:
        raise ValueError(f"cannot seat {players} players from {bots} bots")
    if players == 1:
        return bots
    every = math.comb(bots, players)
    if players == 2 or every <= max_groups:
        return every
    blocks = -(-max_groups // bots)  # balanced_groups: a multiple of n
    if blocks * bots >= every or blocks > _full_orbits(bots, players):
        return every
    return blocks * bots


def _full_orbits(n: int, k: int) -> int:
    """How many k-subsets of a circle of n positions have n distinct rotations,
    counted once per set of rotations (Moebius inversion over the rotations a
    subset can be invariant under): the base blocks a cyclic design can use."""
    aperiodic = 0
    for d in range(1, math.gcd(n, k) + 1):
        if n % d == 0 and k % d == 0:
            aperiodic += _moebius(d) * math.comb(n // d, k // d)
    return aperiodic // n


def _moebius(d: int) -> int:
    sign, factor = 1, 2
    while factor * factor <= d:
        if d % factor == 0:
            d //= factor
            if d % factor == 0:
                return 0
            sign = -sign
        factor += 1
    return -sign if d > 1 else sign


def balanced_groups(bots: Sequence[str], k: int, target: int) -> tuple[tuple[str, ...], ...]:
    """A balanced incomplete design of about `target` groups of k bots (a cyclic design).

    Bots are numbered 0..n-1 around a circle. A *base block* is a set of k
    positions containing 0; its n rotations (add i mod n to every position) are
    n groups in which every bot sits exactly k times. Two bots meet once for
    every pair of positions in a base block whose circular distance equals
    theirs, so base blocks are chosen greedily to cover every distance as evenly
    as possible (seeded random tie-breaks, rejecting a base block whose groups
    repeat earlier ones). `target` is rounded up to a multiple of n, so every
    bot plays in exactly the same number of groups, and every two bots meet
    nearly equally often (the tests check the spread).

    Near the number of k-subsets, few unused base blocks are left and the random
    draws may all miss them: the best of the first 40 unused ones, in order, is
    then taken. When there are fewer base blocks than wanted (some
    k-subsets repeat under fewer than n rotations), every k-subset is a group.
    """
    n = len(bots)
    if k < 2 or k >= n:
        raise ValueError(f"a design needs 2 <= k < n, not k={k}, n={n}")
    blocks_wanted = math.ceil(target / n)
    if blocks_wanted * n >= math.comb(n, k) or blocks_wanted > _full_orbits(n, k):
        return tuple(itertools.combinations(bots, k))
    rng = random.Random(f"cyclic:{n}:{k}:{blocks_wanted}")
    # meetings[d]: how often two bots at circular distance d have met so far
    meetings = [0] * (n // 2 + 1)

    def distance(a: int, b: int) -> int:
        d = (a - b) % n
        return min(d, n - d)

    def weight(d: int) -> int:
        # the rotations of a block holding two bots n/2 apart cover that pair twice
        return 2 if 2 * d == n else 1

    def candidate() -> list[int]:
        base = [0, rng.randrange(1, n)]
        while len(base) < k:
            options = [p for p in range(1, n) if p not in base]
            noise = {p: rng.random() for p in options}

            def cost(p: int, base: list[int] = base, noise: dict[int, float] = noise) -> tuple:
                added = [distance(p, q) for q in base]
                return (max(meetings[d] + weight(d) for d in added), noise[p])

            base.append(min(options, key=cost))
        return base

    def spread(base: list[int]) -> tuple[int, int]:
        after = meetings.copy()
        for a, b in itertools.combinations(base, 2):
            d = distance(a, b)
            after[d] += weight(d)
        return max(after[1:]) - min(after[1:]), max(after[1:])

    seen: set[tuple[int, ...]] = set()
    groups: list[tuple[str, ...]] = []
    for _ in range(blocks_wanted):
        best: tuple[tuple[int, int], list[int], set[tuple[int, ...]]] | None = None
        for _attempt in range(40):
            base = candidate()
            rotations = {tuple(sorted((p + i) % n for p in base)) for i in range(n)}
            if len(rotations) == n and not rotations & seen:
                score = spread(base)
                if best is None or score < best[0]:
                    best = (score, base, rotations)
        if best is None:
            # The draws missed every unused base block: take the best of the
            # first 40 unused ones in order.
            found = 0
            for rest in itertools.combinations(range(1, n), k - 1):
                base = [0, *rest]
                rotations = {tuple(sorted((p + i) % n for p in base)) for i in range(n)}
                if len(rotations) == n and not rotations & seen:
                    score = spread(base)
                    if best is None or score < best[0]:
                        best = (score, base, rotations)
                    found += 1
                    if found == 40:
                        break
        if best is None:  # not reached: _full_orbits counted enough base blocks
            raise ValueError(f"no cyclic design of {blocks_wanted * n} groups of {k} from {n} bots")
        _, base, rotations = best
        seen |= rotations
        for a, b in itertools.combinations(base, 2):
            d = distance(a, b)
            meetings[d] += weight(d)
        groups.extend(tuple(bots[p] for p in block) for block in sorted(rotations))
    return tuple(groups)


def gauntlet_groups(
    bots: Sequence[str], candidates: Sequence[str], players: int, max_groups: int
) -> tuple[tuple[str, ...], ...]:
    """Each candidate with every (k-1)-subset of the non-candidates (for k >= 4,
    a balanced design of them past `max_groups` per candidate; at k = 3 every
    pair, as `make_groups` never designs pairs); candidates never meet."""
    field = [bot for bot in bots if bot not in candidates]
    groups: list[tuple[str, ...]] = []
    for candidate in candidates:
        groups.extend((candidate, *rest) for rest in make_groups(field, players - 1, max_groups))
    return tuple(groups)


def _rotations(
    group: tuple[str, ...], index: int, seed: int, first: int = 0
) -> list[ScheduledGame]:
    games = []
    for rotation in range(len(group)):
        seats = group[rotation:] + group[:rotation]
        games.append(
            ScheduledGame(
                key=game_key(seed, seats),
                group=index,
                seed=seed,
                seats=seats,
                rotation=first + rotation,
            )
        )
    return games


def seatings_per_seed(players: int, seat_orders: int = SEAT_ORDERS) -> int:
    """The games a group of `players` bots plays on one seed (`_seatings`)."""
    return players * (seat_orders if players >= 3 else 1)


def _seatings(
    group: tuple[str, ...], index: int, seed: int, seat_orders: int
) -> list[ScheduledGame]:
    """A group's games on one seed: the k rotations of its seat order and, for
    k >= 3 with `seat_orders` = 2, the k rotations of the reversed order.

    The rotations alone seat each bot right before the same neighbour in every
    game (in a 7-bot 3-player round robin, a before b 6 times, never after), so
    a game that favours the seat before another's tilts their head-to-head
    score; reversed, each bot sits right after the bot it sat before, seat 0
    counting as after the last seat or not. For k = 2 the two rotations are
    already both orders."""
    games = _rotations(group, index, seed)
    if seatings_per_seed(len(group), seat_orders) > len(group):
        games += _rotations(group[::-1], index, seed, first=len(group))
    return games


def make_schedule(
    bots: Sequence[str],
    players: int,
    games_per_pairing: int,
    base_seed: int,
    max_groups: int = 60,
    candidates: Sequence[str] = (),
    seat_orders: int = SEAT_ORDERS,
) -> tuple[ScheduledGame, ...]:
    """Every game of the tournament, seed by seed (so a partial run covers every group).

    With `candidates` it is a gauntlet: only the candidates' games against the field.
    `seat_orders`: 2 plays each group of 3 or more bots in its seat order and
    the reversed one, 1 in its own alone (as tournaments stored before did).
    """
    if candidates:
        groups = gauntlet_groups(bots, candidates, players, max_groups)
    else:
        groups = make_groups(bots, players, max_groups)
    games: list[ScheduledGame] = []
    for seed in seeds(base_seed, games_per_pairing):
        for index, group in enumerate(groups):
            games.extend(_seatings(group, index, seed, seat_orders))
    return tuple(games)


def ladder_schedule(
    stages: Sequence[Sequence[str]],
    players: int,
    games_per_pairing: int,
    base_seed: int,
    max_groups: int = 60,
    candidates: Sequence[str] = (),
    seat_orders: int = SEAT_ORDERS,
) -> tuple[ScheduledGame, ...]:
    """The schedule of a tournament whose field changed between runs.

    `stages` are the fields (bots in config order) of its runs, oldest first,
    the last one being the current field. The first stage contributes its whole
    schedule; each later stage contributes only the games of its own schedule
    in which a bot new to that stage sits. Games with a bot no longer in the
    current field are dropped. With every k-subset as a group (2 players, or
    few groups) this is exactly the current field's schedule; with a balanced
    design it keeps the old groups instead of redrawing the design, so adding
    one bot plays only that bot's games.
    """
    if not stages:
        raise ValueError("no field to schedule")
    current = set(stages[-1])
    chosen: dict[str, ScheduledGame] = {}
    before: set[str] = set()
    for field, stage in enumerate(stages):
        newcomers = set(stage) - before
        before = set(stage)
        in_stage = [c for c in candidates if c in before]
        if candidates and not in_stage:
            continue
        try:
            games = make_schedule(
                stage, players, games_per_pairing, base_seed, max_groups, in_stage, seat_orders
            )
        except ValueError:  # too few bots at that stage to seat a game
            continue
        for game in games:
            seated = set(game.seats)
            if seated & newcomers and seated <= current and game.key not in chosen:
                chosen[game.key] = replace(game, field=field)
    return tuple(sorted(chosen.values(), key=lambda game: game.seed))


def sprt_block(
    index: int,
    base_seed: int,
    candidate: str,
    baseline: str,
    others: Sequence[str],
    players: int,
) -> tuple[ScheduledGame, ...]:
    """Block `index` of an SPRT: seed base_seed + index in every seat rotation.

    Solo, the candidate and the baseline each play the deal once. With k >= 3,
    the k - 2 extra seats go to `others`, taken in turn from block to block,
    and the block is 2k games: every rotation of (candidate, baseline, others)
    and of (baseline, candidate, others). The rotations alone would always seat
    the baseline right after the candidate, so a game that favours either of
    two neighbouring seats would favour one side in every game (with seat 0
    ranked first, seat 1 second and so on, a bot would score 2/3 against
    itself at 3 players, 3/4 at 4); with the swap each game has a twin in
    which the two trade seats and nothing else changes.
    """
    seed = base_seed + index
    if players == 1:
        return tuple(
            ScheduledGame(game_key(seed, (bot,)), index, seed, (bot,), 0)
            for bot in (candidate, baseline)
        )
    extra = players - 2
    if extra > len(others):
        raise ValueError(f"{players}-player games need {count(extra, 'bot')} beside the two tested")
    fillers = tuple(others[(index * extra + j) % len(others)] for j in range(extra))
    games = _rotations((candidate, baseline, *fillers), index, seed)
    if extra:
        games += _rotations((baseline, candidate, *fillers), index, seed)
    return tuple(games)
