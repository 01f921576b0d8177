"""Brute-force references of the compiled rules passes: plain Python loops over the events, one at a time, for
well-formed rounds (every tile a 136-id 0-135, every event's seat 0-3 or -1 for a dora). test_compiled_passes
compares the passes with them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import ACTIONS, CALLS, EventArrays
from rules.waits import KIND_BITS

RED_FIVES = {16: 34, 52: 35, 88: 36}
"""136-id of each red five -> its column in a 37-column hand."""

HAND_CHANGES = ("draw", "chi", "pon", "daiminkan", "kakan", "ankan", "kita")
"""Actions that change a closed hand, other than a discard."""


@dataclass
class State:
    """One hand state: (round, seat, event row or -1 for the deal), the event's index and action code (-1 for the
    deal), the calls made so far and the 37 counts (34 kinds, red 5m, 5p, 5s)."""

    round_id: int
    seat: int
    event_row: int
    event_idx: int
    after_action: int
    n_calls: int
    counts: np.ndarray


def moves(events: EventArrays, e: int) -> list[tuple[int, int]]:
    """(136-id, +1 or -1) of every tile event row ``e`` moves into or out of its seat's closed hand."""
    action = ACTIONS[events.action[e]] if 0 <= events.action[e] < len(ACTIONS) else ""
    tile = int(events.tile[e])
    meld = [int(t) for t in events.meld_values[events.meld_offsets[e] : events.meld_offsets[e + 1]]]
    if action == "draw":
        return [(tile, 1)]
    if action in ("discard", "kakan", "kita"):
        return [(tile, -1)]
    if action == "ankan":
        return [(t, -1) for t in meld]
    if action in CALLS:  # chi, pon, daiminkan: the called tile was never in the hand
        return [(t, -1) for t in meld if t != tile]
    return []


def replay_hands(events: EventArrays) -> list[State]:
    """Every hand state, in (round, seat, event row) order: each dealt hand, then the hand after each event that
    moved a tile."""
    states = []
    for r in range(len(events.hands_start)):
        hands: dict[int, np.ndarray] = {}
        calls: dict[int, int] = {}
        for seat in range(events.hands_start.shape[1]):
            dealt = [int(t) for t in events.hands_start[r, seat] if t >= 0]
            if dealt:
                hands[seat], calls[seat] = np.zeros(37, dtype=np.int64), 0
                for tile in dealt:
                    add_tile(hands[seat], tile, 1, bool(events.has_red_fives[r]))
                states.append(State(r, seat, -1, -1, -1, 0, hands[seat].copy()))
        for e in np.flatnonzero(events.round_id == r).tolist():
            moved, seat = moves(events, e), int(events.seat[e])
            if not moved:
                continue
            hand = hands.setdefault(seat, np.zeros(37, dtype=np.int64))
            for tile, delta in moved:
                add_tile(hand, tile, delta, bool(events.has_red_fives[r]))
            calls[seat] = calls.get(seat, 0) + (ACTIONS[events.action[e]] in CALLS)
            states.append(State(r, seat, e, int(events.event_idx[e]), int(events.action[e]), calls[seat], hand.copy()))
    return sorted(states, key=lambda s: (s.round_id, s.seat, s.event_row))


def add_tile(hand: np.ndarray, tile: int, delta: int, has_red: bool) -> None:
    """Add ``delta`` copies of a 136-id to a 37-column hand (its red-five column too, under the red-five rule)."""
    hand[tile // 4] += delta
    if has_red and tile in RED_FIVES:
        hand[RED_FIVES[tile]] += delta


def suit_index(counts: np.ndarray) -> list[int]:
    """Each suit's base-5 index of 34 counts (kind k of a suit weighs 5 ** (k % 9))."""
    return [sum(int(counts[k]) * 5 ** (k % 9) for k in range(s * 9, min(s * 9 + 9, 34))) for s in range(4)]


def replay_public(events: EventArrays, dora_indicator: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n_events, 34) public counts after each event, (n_rounds, 34) at each round's start (its first dora
    indicator): discards, kakan and kita tiles, dora indicators and a call's tiles from the hand."""
    start = np.zeros((len(events.hands_start), 34), dtype=np.int64)
    public = np.zeros((len(events.action), 34), dtype=np.int64)
    for r in range(len(events.hands_start)):
        start[r, dora_indicator[r] // 4] += 1
        shown = start[r].copy()
        for e in np.flatnonzero(events.round_id == r).tolist():
            action = ACTIONS[events.action[e]]
            if action in ("discard", "kakan", "kita", "dora"):
                shown[events.tile[e] // 4] += 1
            elif action in CALLS:  # the tiles a call takes from the hand, as moves finds them
                for tile, _ in moves(events, e):
                    shown[tile // 4] += 1
            public[e] = shown
    return public, start


def by_round(states: list[State]) -> dict[int, list[tuple[int, State]]]:
    """The states (numbered as in the list) of each round, in order."""
    out: dict[int, list[tuple[int, State]]] = {}
    for i, state in enumerate(states):
        out.setdefault(state.round_id, []).append((i, state))
    return out


def closed_all(states: list[State], round_id: int, event_row: int) -> np.ndarray:
    """(34,) the tiles in all closed hands of a round right after an event row (-1: as dealt); ``states`` that
    round's (or more), in order."""
    latest: dict[int, np.ndarray] = {}
    for state in states:  # in (round, seat, row) order: the last one found per seat is its latest
        if state.round_id == round_id and state.event_row <= event_row:
            latest[state.seat] = state.counts[:34]
    return sum(latest.values(), np.zeros(34, dtype=np.int64))


def current_waits(events: EventArrays, states: list[State], waits: np.ndarray) -> np.ndarray:
    """(n_events, 4) each seat's waits as of its last between-turn state (waits >= 0) before each event."""
    out = np.zeros((len(events.action), 4), dtype=np.int64)
    rounds = by_round(states)
    for e in range(len(events.action)):
        for i, state in rounds.get(int(events.round_id[e]), []):
            if 0 <= state.seat < 4 and state.event_row < e and waits[i] >= 0:
                out[e, state.seat] = waits[i]  # a later state of the seat overwrites an earlier one
    return out


def discarded_kinds(events: EventArrays, round_id: int, seat: int, up_to: int) -> int:
    """The kinds a seat discarded in a round at event rows up to and including ``up_to``, as a 34-bit mask."""
    mask = 0
    for e in np.flatnonzero(events.round_id[: up_to + 1] == round_id).tolist():
        if events.seat[e] == seat and ACTIONS[events.action[e]] == "discard":
            mask |= int(KIND_BITS[events.tile[e] // 4])
    return mask


def own_discard_furiten(events: EventArrays, states: list[State], waits: np.ndarray) -> list[int]:
    """Per state: -1 mid-turn (waits < 0), else whether a wait is among the seat's discards so far (1/0)."""
    return [
        -1 if waits[i] < 0 else int(int(waits[i]) & discarded_kinds(events, s.round_id, s.seat, s.event_row) != 0)
        for i, s in enumerate(states)
    ]


def seat_rows(events: EventArrays, names: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """(keys, rows) of the events of ``names`` by seats 0-3, by (round, seat) then row; keys as RoundIndex files
    them: (round x 4 + seat) x (n_events + 2) + row + 1."""
    stride = len(events.action) + 2
    found = [
        ((int(events.round_id[e]) * 4 + int(events.seat[e])) * stride + e + 1, e)
        for e in range(len(events.action))
        if ACTIONS[events.action[e]] in names and 0 <= events.seat[e] < 4
    ]
    found.sort()
    return [key for key, _ in found], [row for _, row in found]


def first_discards(events: EventArrays) -> tuple[list[int], list[int]]:
    """(keys, discarded) of each seat's first discard of each kind in a round, by (round, seat) then row, with the
    kinds the seat had discarded in the round by then (a mask)."""
    keys, rows = seat_rows(events, ("discard",))
    out_keys, discarded, seen = [], [], set()
    stride = len(events.action) + 2
    for key, row in zip(keys, rows, strict=True):
        group, kind = key // stride, int(events.tile[row] // 4)
        if (group, kind) in seen:
            continue
        seen.add((group, kind))
        previous = discarded[-1] if out_keys and out_keys[-1] // stride == group else 0
        out_keys.append(key)
        discarded.append(previous | int(KIND_BITS[kind]))
    return out_keys, discarded


def live_waits(mask: int, own: np.ndarray, shown: np.ndarray, closed: np.ndarray) -> tuple[int, int, bool]:
    """(live from the player's view, live in the wall, pure karaten) of a tenpai hand."""
    kinds = [k for k in range(34) if mask >> k & 1]
    live_public = sum(max(4 - int(shown[k]) - int(own[k]), 0) for k in kinds)
    live_actual = sum(max(4 - int(shown[k]) - int(closed[k]), 0) for k in kinds)
    return live_public, live_actual, all(own[k] == 4 for k in kinds)
