"""A round's play records applied by the compiled play (kernel.py) instead of play.py's handlers.

``play_compiled(play, records)`` copies the state ``play.start_round`` made into the kernel's arrays, plays the
records, and on success writes the state back into the Play (hands, melds, pon givers, kita, copies used, dora,
riichi, kans, the last tile given, scores and sticks) with the round's event rows and flag rows as arrays; the
result records are then read by results.py as after play.py. It returns False, leaving the Play untouched, when
the records are not of a shape the kernel reads (flat.py) or the kernel stops on one: play.py then plays them and
raises its own error.
"""

from __future__ import annotations

import numpy as np

from pipeline.sources.majsoul import kernel as k
from pipeline.sources.majsoul.document import Record
from pipeline.sources.majsoul.flat import flatten
from pipeline.sources.majsoul.play import Play
from pipeline.sources.tenhou_json.rows import EventRows
from rules.hands import CODE


def play_compiled(play: Play, records: list[Record]) -> bool:
    """Apply the play records to ``play`` in the kernel; False (``play`` unchanged) when play.py must."""
    flat = flatten(records)
    if flat is None or not _plain_numbers(play):
        return False
    recs, doras = flat
    state = _State(play, len(recs), len(doras))
    refused = k.play_round(recs, doras, state.held, state.seat_st, state.melds, state.meld_n, state.meld_from,
                           state.pon_from, state.used, state.dora, state.kan_seats, state.st, state.ev,
                           state.flags)  # fmt: skip
    if refused:
        return False
    state.write_back(play)
    return True


_LIMIT = 1 << 52
"""Scores and sticks beyond this are left to play.py (which names them): the kernel's int64 must not wrap."""


def _plain_numbers(play: Play) -> bool:
    """Whether the deal's scores and sticks (as written) are ints the kernel holds without wrapping."""
    numbers = [play.sticks, *play.scores]
    return all(type(n) is int and -_LIMIT < n < _LIMIT for n in numbers)


class _State:
    """The kernel's copy of a round's state (see kernel.py's ST_*/S_* columns), made from a Play."""

    def __init__(self, play: Play, n_records: int, n_doras: int) -> None:
        self.held = np.zeros((4, k.MAX_HELD), dtype=np.int64)
        self.seat_st = np.zeros((4, k.S_WIDTH), dtype=np.int64)
        for seat, mine in enumerate(play.seats):
            self.held[seat, : len(mine.held)] = mine.held
            self.seat_st[seat] = (mine.n_kita, mine.last_draw, play.scores[seat], len(mine.held), 0)
            if mine.melds:
                raise ValueError("the compiled play starts from a deal without melds")
        self.melds = np.zeros((4, k.MAX_MELDS, 4), dtype=np.int64)
        self.meld_n = np.zeros((4, k.MAX_MELDS), dtype=np.int64)
        self.meld_from = np.zeros((4, k.MAX_MELDS), dtype=np.int64)
        self.pon_from = np.full((4, 34), -1, dtype=np.int64)
        self.used = np.array(play.ids.used, dtype=np.int64)
        self.dora = np.zeros(k.MAX_DORA, dtype=np.int64)
        self.dora[: len(play.dora)] = play.dora
        self.kan_seats = np.zeros(k.MAX_KANS, dtype=np.int64)
        riichi = sum(1 << seat for seat in play.riichi_seats)
        self.st = np.array([len(play.dora), riichi, play.pending_riichi, play.n_accepted, 0, play.last_given,
                            play.last_giver, play.last_actor, play.sticks, 0, play.n_players, play.ids.has_red_fives,
                            len(play.events), 0], dtype=np.int64)  # fmt: skip
        # a record adds at most an accepted riichi, a riichi, its event and its new indicators
        self.ev = np.full((len(play.events) + 3 * n_records + n_doras, k.E_WIDTH), -1, dtype=np.int64)
        for row, (index, event) in enumerate(play.events):
            self.ev[row, : k.E_M0] = (index, CODE[event.action], event.seat, event.tile, event.from_seat, 0)
        self.flags = np.zeros((4 * n_records, k.F_WIDTH), dtype=np.int64)

    def write_back(self, play: Play) -> None:
        """Put the played state into ``play``: its events become the compiled rows, its flags the flag rows."""
        seat_st = self.seat_st.tolist()
        melds, meld_n, meld_from, pon_from = (a.tolist() for a in (self.melds, self.meld_n, self.meld_from,
                                                                   self.pon_from))  # fmt: skip
        for seat, mine in enumerate(play.seats):
            n_kita, last_draw, score, n_held, n_melds = seat_st[seat]
            mine.held = self.held[seat, :n_held].tolist()
            mine.melds = [melds[seat][m][: meld_n[seat][m]] for m in range(n_melds)]
            mine.pon_from = {kind: giver for kind, giver in enumerate(pon_from[seat]) if giver >= 0}
            mine.n_kita, mine.last_draw = n_kita, last_draw
            play.meld_from[seat] = meld_from[seat][:n_melds]
            play.scores[seat] = score
        st = self.st.tolist()
        play.ids.used = self.used.tolist()
        play.dora = self.dora[: st[k.ST_NDORA]].tolist()
        play.riichi_seats = {seat for seat in range(4) if st[k.ST_RIICHI] >> seat & 1}
        play.pending_riichi, play.n_accepted, play.sticks = st[k.ST_PENDING], st[k.ST_ACCEPTED], st[k.ST_STICKS]
        play.kan_seats = self.kan_seats[: st[k.ST_NKAN]].tolist()
        play.last_given, play.last_giver, play.last_actor = st[k.ST_GIVEN], st[k.ST_GIVER], st[k.ST_ACTOR]
        if st[k.ST_MISMATCH]:
            play.quirks.add("tsumogiri_mismatch")
        ev = self.ev[: st[k.ST_NEV]]
        play.compiled = EventRows(ev[:, k.E_ACTION], ev[:, k.E_SEAT], ev[:, k.E_TILE], ev[:, k.E_FROM],
                                  ev[:, k.E_M0 :], ev[:, k.E_MELDN]), ev[:, k.E_INDEX]  # fmt: skip
        play.events = []
        play.compiled_flags = self.flags[: st[k.ST_NFLAG]]
