"""What is visible on the table after every event, and what all hands hold, per round.

``public`` counts, per 34-kind, the tiles everybody can see: discards (a called discard stays
visible in the meld), the tiles a call shows from the caller's hand (chi/pon/daiminkan: the two or
three own tiles; kakan: the added tile; ankan: all four), kita tiles and dora indicators; running per
round, one row per event, plus the state at the round's start (before its first event).
``closed_all_at`` counts the tiles in all closed hands together at the moments asked for, from the
hand states (every seat's latest hand at that moment).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.hands import CALLS, CODE, EventArrays, HandStates, is_action
from rules.round_index import RoundIndex
from rules.running import running_counts, wrapped_cells
from rules.tiles import N_KINDS


@dataclass
class Visibility:
    """Running public counts per event row (n_events, 34) int8, and at each round's start (n_rounds, 34)."""

    public: np.ndarray
    public_start: np.ndarray


def _public_deltas(events: EventArrays) -> tuple[np.ndarray, np.ndarray]:
    """(event row, 136-id) of every tile an event shows to the table."""
    action = events.action
    rows = np.arange(len(action))
    shown_alone = is_action(action, ("discard", "kakan", "kita", "dora"))
    lengths = np.diff(events.meld_offsets)
    owner = np.repeat(rows, lengths)
    meld_tile = events.meld_values
    from_hand = is_action(action[owner], CALLS)
    # the called tile is already visible as a discard
    from_hand &= (action[owner] == CODE["ankan"]) | (meld_tile != events.tile[owner])
    return (
        np.concatenate([rows[shown_alone], owner[from_hand]]),
        np.concatenate([events.tile[shown_alone], meld_tile[from_hand]]),
    )


def _running(
    rows: np.ndarray, tiles: np.ndarray, deltas: np.ndarray, start: np.ndarray, events: EventArrays
) -> np.ndarray:
    """Per-round running counts after each event, starting from ``start`` (n_rounds, 34)."""
    n = len(events.action)
    first = np.flatnonzero(np.r_[True, events.round_id[1:] != events.round_id[:-1]]) if n else np.zeros(0, int)
    # the round's start counts join its first event's deltas
    start_round, start_kind = np.nonzero(start[events.round_id[first]])
    rows, kinds = wrapped_cells(rows, tiles // 4, (n, 34))
    return running_counts(
        np.concatenate([rows, first[start_round]]),
        np.concatenate([kinds, start_kind]),
        np.concatenate([deltas.astype(np.int8), start[events.round_id[first]][start_round, start_kind]]),
        (n, 34),
        first,
    )


def visibility(events: EventArrays, dora_indicator: np.ndarray) -> Visibility:
    """Running public counts for every event; ``dora_indicator`` (n_rounds,) 136-ids of each round's first
    indicator."""
    n_rounds = len(events.hands_start)
    public_start = np.zeros((n_rounds, 34), dtype=np.int8)
    public_start[np.arange(n_rounds), dora_indicator // 4] = 1
    pub_rows, pub_tiles = _public_deltas(events)
    public = _running(pub_rows, pub_tiles, np.ones(len(pub_rows), dtype=np.int8), public_start, events)
    return Visibility(public, public_start)


def closed_all_at(states: HandStates, round_id: np.ndarray, event_row: np.ndarray) -> np.ndarray:
    """(Q, 34) int8: the tiles in all closed hands of round ``round_id`` right after its event row
    ``event_row`` (-1: as dealt), for Q such moments; from each seat's latest hand state at that moment.

    ``states`` must be in rules.hands.hand_states order: by round, seat, then event row (the deal first).
    """
    n_positions = max(int(states.event_row.max(initial=-1)), int(np.max(event_row, initial=-1))) + 1
    index = RoundIndex.build(states.round_id, states.seat, states.event_row, n_positions)
    round_id = np.asarray(round_id, dtype=np.int64)
    found = index.previous(round_id[:, None], np.arange(4), np.asarray(event_row)[:, None], inclusive=True)
    # each seat's hand, gathered as whole 34-byte rows; none where the state found is not that seat's in that
    # round (a seat without a hand, as in sanma)
    rows = np.ascontiguousarray(states.counts, dtype=np.int8).view(np.dtype((np.void, N_KINDS))).ravel()
    hands = np.take(rows, np.maximum(found, 0)).view(np.int8).reshape(len(found), 4, N_KINDS)
    hands[found < 0] = 0
    return hands[:, 0] + hands[:, 1] + hands[:, 2] + hands[:, 3]


def at_states(counts: np.ndarray, start: np.ndarray, round_id: np.ndarray, event_row: np.ndarray) -> np.ndarray:
    """Pick the running counts of each state: after its event, or the round's start for a deal."""
    return np.where((event_row >= 0)[:, None], counts[np.maximum(event_row, 0)], start[round_id])
