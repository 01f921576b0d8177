"""The Mahjong Soul parser's compiled play (kernel.play_round through fast.play_compiled) reads every round exactly
as play.py's Python handlers do: the same tables, the same server flags, or the same error.

Games are generated here, deterministic from a seed: legal four-player and three-player games (a shuffled wall, the
deal, draws, discards, chi, pon, daiminkan, kakan, ankan, kita, riichi and double riichi with their acceptance,
sometimes named by a ``liqi`` or marked failed, new dora indicators on kan, draw and discard records, the server's
``zhenting`` and ``tingpais`` flags, red fives or none), each round ended by a tsumo, one to three rons (chankan and
rons of a closed kan or kita too), an exhaustive draw or an abortive draw. Each file is read twice, once as the
parser reads it and once with ``play_compiled`` forced to say False (every round then played by play.py); both reads
must give equal Arrow tables for every game and equal ``server_flags``, or the same error. The clean games must be
read mostly by the kernel and show every action it plays; mutants of them (a field set to another tile, seat, type
or junk, a field removed, records dropped, duplicated or swapped) exercise the paths where the kernel refuses a
round and the Python path raises, or reads what it reads.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

import pipeline.sources.majsoul.parser as parser_module
from pipeline.errors import ParseError
from pipeline.schema import to_arrow
from pipeline.sources.base import concat_buffers
from pipeline.sources.majsoul import parse, server_flags
from pipeline.sources.majsoul.fast import play_compiled
from pipeline.sources.majsoul.flat import flatten
from pipeline.sources.majsoul.play import Play
from rules.hands import ACTIONS

Record = dict[str, Any]
Outcome = tuple[Any, Any]
"""(every game's tables as Arrow, or the error) and (``server_flags``, or the error)."""

N_GAMES = 100
N_MUTANTS = 1000
TILE_NAMES = [f"{n}{s}" for s in "mps" for n in range(10)] + [f"{n}z" for n in range(1, 8)]
"""Every Mahjong Soul tile string: '0m'..'9m' (0: the red five), same for p and s, '1z'..'7z'."""
SAFE_FANS = (1, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 21, 22, 23, 25, 27, 29, 31, 32)
"""Fan ids of ordinary wins (none makes a seat liable: no daisangen or daisuushii)."""


# --- tiles -------------------------------------------------------------------------------------------------------
def kind_of(tile: str) -> str:
    """The tile's kind as a plain string: '0m' -> '5m'."""
    return ("5" if tile[0] == "0" else tile[0]) + tile[1]


def number_of(tile: str) -> int:
    return int(kind_of(tile)[0])


def make_wall(rng: random.Random, n_players: int, red: bool) -> list[str]:
    """A shuffled set: 136 tiles, or sanma's 108 (no 2m-8m); one five of each suit red when ``red``."""
    wall = []
    for suit in "mps":
        numbers = (1, 9) if n_players == 3 and suit == "m" else range(1, 10)
        wall += [f"{0 if red and n == 5 and c == 0 else n}{suit}" for n in numbers for c in range(4)]
    wall += [f"{n}z" for n in range(1, 8) for _ in range(4)]
    rng.shuffle(wall)
    return wall


def rec(kind: str, data: dict[str, Any]) -> Record:
    return {"name": f".lq.Record{kind}", "data": data}


# --- the generator ----------------------------------------------------------------------------------------------
@dataclass
class Table:
    """What carries from one round to the next."""

    scores: list[int]
    sticks: int = 0
    honba: int = 0


class RoundEnd(Exception):
    """The round's result record was written."""


@dataclass
class RoundSim:
    """One round played on a shuffled wall, written as Mahjong Soul records (strings of tiles only: the parser
    numbers the copies itself)."""

    rng: random.Random
    n: int
    red: bool
    round_no: int
    table: Table
    features: Counter
    hands: list[list[str]] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)

    def __post_init__(self) -> None:
        rng, n = self.rng, self.n
        self.dealer = self.round_no % n
        wall = make_wall(rng, n, self.red)
        self.hands = [[wall.pop() for _ in range(13)] if seat < n else [] for seat in range(4)]
        self.hands[self.dealer].append(wall.pop())
        self.dead = [wall.pop() for _ in range(14)]
        self.live = wall
        for seat in range(n):
            if rng.random() < 0.35:
                self._clump(seat)
        self.doras = [self.dead.pop()]
        self.drawn: list[str | None] = [None] * 4
        self.drawn[self.dealer] = self.hands[self.dealer][-1]
        self.pons: list[set[str]] = [set() for _ in range(4)]
        self.is_open, self.riichi = [False] * 4, [False] * 4
        self.pending, self.n_accepted, self.kans = -1, 0, []
        self.new_doras, self.reveal_on = 0, "discard"
        self.given: tuple[int, str] = (-1, "")
        self.interrupted, self.n_discards = False, 0
        self.scores, self.sticks, self.honba = list(self.table.scores), self.table.sticks, self.table.honba
        self.p_end = 0.002 if rng.random() < 0.3 else 0.03  # some rounds run to the exhaustive draw
        self.records.append(rec("NewRound", self._deal_data()))

    def _clump(self, seat: int) -> None:
        """Swap copies of one of the seat's tiles from the live wall into its hand (kans and pons happen)."""
        hand = self.hands[seat]
        kind, wanted = kind_of(self.rng.choice(hand[:13])), self.rng.randint(1, 3)
        for at, tile in enumerate(self.live):
            if kind_of(tile) == kind and wanted:
                out = self.rng.choice([i for i in range(13) if kind_of(hand[i]) != kind] or [0])
                hand[out], self.live[at] = tile, hand[out]
                wanted -= 1

    # -- helpers
    def _chance(self, p: float) -> bool:
        return self.rng.random() < p

    def _seat_field(self, data: dict[str, Any], seat: int) -> None:
        """Protobuf omits a default: seat 0 is sometimes left out."""
        if seat or self._chance(0.7):
            data["seat"] = seat

    def _deal_data(self) -> dict[str, Any]:
        data: dict[str, Any] = {"chang": self.round_no // self.n, "ju": self.dealer, "ben": self.honba,
                                "liqibang": self.sticks, "scores": list(self.scores)}  # fmt: skip
        if self._chance(0.1):
            data["dora"] = self.doras[0]
        else:
            data["doras"] = list(self.doras)
        for seat in range(4):
            data[f"tiles{seat}"] = list(self.hands[seat])
        if self._chance(0.3):
            data["tingpai"] = [{"seat": s, "tingpais1": [{"tile": t} for t in self.rng.sample(TILE_NAMES, 2)]}
                               for s in range(self.n) if self._chance(0.5)]  # fmt: skip
        data["left_tile_count"] = len(self.live)
        return data

    def _add(self, kind: str, data: dict[str, Any]) -> None:
        self.records.append(rec(kind, data))

    def _flags(self, data: dict[str, Any], waits: bool) -> None:
        """The server's furiten per seat, and (a discard's) the discarder's waits, on some records."""
        if self._chance(0.35):
            length = self.n if self.n == 4 or self._chance(0.8) else 4
            data["zhenting"] = [self._chance(0.3) for _ in range(length)]
            self.features["zhenting"] += 1
        if waits and self._chance(0.3):
            data["tingpais"] = [{"tile": t} for t in self.rng.sample(TILE_NAMES, self.rng.randint(0, 3))]
            self.features["tingpais"] += 1

    def _reveal(self, data: dict[str, Any], where: str) -> None:
        """New indicators (after a kan) on this record when due here; now and then the unchanged list."""
        if self.new_doras and where == self.reveal_on:
            for _ in range(self.new_doras):
                self.doras.append(self.dead.pop())
            self.new_doras = 0
            data["doras"] = list(self.doras)
            self.features[f"dora_on_{where}"] += 1
        elif self._chance(0.03):
            data["doras"] = list(self.doras)

    def _accept(self, data: dict[str, Any], may_fail: bool = True) -> None:
        """The pending riichi passes with this record: named by a ``liqi`` (sometimes failed) or not."""
        seat, self.pending = self.pending, -1
        if seat < 0:
            return
        failed = may_fail and self._chance(0.12)
        if failed or self._chance(0.6):
            liqi: dict[str, Any] = {"score": self.scores[seat] - (0 if failed else 1000),
                                    "liqibang": self.sticks + (0 if failed else 1)}  # fmt: skip
            self._seat_field(liqi, seat)
            if failed:
                liqi["failed"] = True
            data["liqi"] = liqi
            self.features["liqi_failed" if failed else "liqi_named"] += 1
        if not failed:
            self.scores[seat] -= 1000
            self.sticks += 1
            self.n_accepted += 1

    def _others(self, seat: int) -> list[int]:
        return [s for s in range(self.n) if s != seat]

    # -- play
    def play(self) -> list[Record]:
        seat, state = self.dealer, "act"
        try:
            while True:
                if state == "draw":
                    if not self.live:
                        self._exhaustive()
                    self._draw(seat)
                if state == "discard":
                    self._discard(seat)
                else:
                    self._act(seat)
                seat, state = self._after_discard(seat)
        except RoundEnd:
            return self.records

    def _draw(self, seat: int) -> None:
        tile = self.live.pop()
        self.hands[seat].append(tile)
        self.drawn[seat] = tile
        data: dict[str, Any] = {"tile": tile, "left_tile_count": len(self.live)}
        self._seat_field(data, seat)
        self._accept(data)
        self._reveal(data, "deal")
        self._flags(data, waits=False)
        self._add("DealTile", data)
        if tile[0] == "0":
            self.features["red_drawn"] += 1

    def _act(self, seat: int) -> None:
        """A seat holding a drawn tile: tsumo, kyuushu kyuuhai, a kan or kita (then a replacement draw), or a
        discard."""
        while True:
            if self._chance(self.p_end):
                self._hule([seat], zimo=True)
            if not self.interrupted and self.n_discards < self.n and self._chance(0.01):
                self._liuju(1, seat)
            if not self._self_call(seat):
                break
            self._draw(seat)
        self._discard(seat)

    def _self_call(self, seat: int) -> bool:
        """A closed kan, an added kan or a kita (sanma) when the seat can and wants to; a ron of its tile may
        end the round."""
        if not self.live:
            return False
        hand = self.hands[seat]
        counts = Counter(kind_of(t) for t in hand)
        if len(self.kans) < 4 and not self.riichi[seat]:
            fours = [k for k, c in counts.items() if c == 4]
            if fours and self._chance(0.6):
                self._ankan(seat, self.rng.choice(fours))
                return True
            added = [k for k in self.pons[seat] if counts[k]]
            if added and self._chance(0.6):
                self._kakan(seat, self.rng.choice(added))
                return True
        if self.n == 3 and "4z" in hand and self._chance(0.7):
            self._kita(seat)
            return True
        return False

    def _ankan(self, seat: int, kind: str) -> None:
        hand = self.hands[seat]
        four = [t for t in hand if kind_of(t) == kind]
        for t in four:
            hand.remove(t)
        text = self.rng.choice(four)
        data: dict[str, Any] = {"type": 3, "tiles": text}
        self._seat_field(data, seat)
        self.new_doras += 1
        self.reveal_on = "kan" if self._chance(0.5) else "deal"
        self._reveal(data, "kan")
        self.features["ankan"] += 1
        self._kanned(seat, text, "AnGangAddGang", data)

    def _kakan(self, seat: int, kind: str) -> None:
        hand, drawn = self.hands[seat], self.drawn[seat]
        text = drawn if drawn and kind_of(drawn) == kind else next(t for t in hand if kind_of(t) == kind)
        hand.remove(text)
        self.pons[seat].discard(kind)
        data: dict[str, Any] = {"type": 2, "tiles": text}
        self._seat_field(data, seat)
        self.new_doras += 1
        self.reveal_on = "deal" if self._chance(0.4) else "discard"
        self.features["kakan"] += 1
        self._kanned(seat, text, "AnGangAddGang", data, p_ron=0.25)

    def _kita(self, seat: int) -> None:
        hand, drawn = self.hands[seat], self.drawn[seat]
        moqie = drawn == "4z" and (hand.count("4z") == 1 or self._chance(0.5))
        hand.remove("4z")
        data: dict[str, Any] = {"moqie": moqie}
        self._seat_field(data, seat)
        self._reveal(data, "kita")
        self._flags(data, waits=True)
        self.drawn[seat] = None
        self.given = (seat, "4z")
        self._add("BaBei", data)
        self.features["kita"] += 1
        if self._chance(0.03):
            self._ron("4z", seat)

    def _kanned(self, seat: int, text: str, kind: str, data: dict[str, Any], p_ron: float = 0.03) -> None:
        """After a kan record: the kan counted, then perhaps a ron of its tile (chankan)."""
        self._flags(data, waits=True)  # flags on a kan are not read: they must not matter
        self._add(kind, data)
        self.kans.append(seat)
        self.interrupted = True
        self.drawn[seat] = None
        self.given = (seat, text)
        if self._chance(p_ron):
            self.features["ron_of_kan"] += 1
            self._ron(text, seat)

    def _can_riichi(self, seat: int) -> bool:
        return not self.riichi[seat] and not self.is_open[seat] and self.scores[seat] >= 1000 \
            and len(self.live) >= self.n  # fmt: skip

    def _discard(self, seat: int) -> None:
        hand, drawn = self.hands[seat], self.drawn[seat]
        declare = self._can_riichi(seat) and self._chance(0.12)
        if drawn is not None and (self.riichi[seat] or self._chance(0.35)):
            tile, moqie = drawn, True
        elif drawn is not None and hand.count(drawn) >= 2 and self._chance(0.25):
            tile, moqie = drawn, False  # another copy of the drawn tile, from the hand
            self.features["hand_copy_of_drawn"] += 1
        else:
            tile = self.rng.choice(self._feeding(seat) or hand)
            moqie = tile == drawn and hand.count(tile) == 1
        hand.remove(tile)
        data: dict[str, Any] = {"tile": tile, "moqie": moqie}
        self._seat_field(data, seat)
        if declare:
            self._declare(seat, data)
        self._reveal(data, "discard")
        self._flags(data, waits=True)
        self._add("DiscardTile", data)
        self.drawn[seat] = None
        self.given = (seat, tile)
        self.n_discards += 1

    def _feeding(self, seat: int) -> list[str]:
        """Now and then, the seat's tiles another seat holds three of (so that daiminkan happens)."""
        if not self._chance(0.5):
            return []
        threes = {kind_of(t) for s in self._others(seat) if not self.riichi[s] for t in self.hands[s]
                  if sum(kind_of(u) == kind_of(t) for u in self.hands[s]) == 3}  # fmt: skip
        return [t for t in self.hands[seat] if kind_of(t) in threes]

    def _bring_fourth(self, seat: int, kind: str) -> None:
        """Put the last copy of a seat's pon where the seat draws it next (so that kakan happens)."""
        at = next((i for i, t in enumerate(self.live) if kind_of(t) == kind), None)
        if at is not None and len(self.live) > self.n and self._chance(0.6):
            tile = self.live.pop(at)
            self.live.insert(len(self.live) - self.n + 1, tile)

    def _declare(self, seat: int, data: dict[str, Any]) -> None:
        if not self.interrupted and self.n_discards < self.n and self._chance(0.6):
            data["is_wliqi"] = True
            if self._chance(0.5):
                data["is_liqi"] = True
            self.features["double_riichi"] += 1
        else:
            data["is_liqi"] = True
            self.features["riichi"] += 1
        self.riichi[seat] = True
        self.pending = seat

    def _after_discard(self, giver: int) -> tuple[int, str]:
        """Rons, abortive draws or a call of the discard; else the next seat draws."""
        tile = self.given[1]
        if self._chance(self.p_end):
            self._ron(tile, giver)
        accepted = self.n_accepted + (self.pending >= 0)
        if self.n == 4 and accepted == 4:
            self._liuju(4)
        if len(self.kans) >= 4 and len(set(self.kans)) > 1:
            self._liuju(3)
        if self.n_discards == 4 and not self.interrupted and self._chance(0.02):
            self._liuju(2)
        if self.n == 4 and self._chance(0.003):
            self._liuju(5)
        options = self._call_options(giver, tile)
        if options and self._chance(0.3):
            kans = [option for option in options if option[0] == "daiminkan"]
            return self._call(giver, tile, *self.rng.choice(kans if kans and self._chance(0.5) else options))
        return (giver + 1) % self.n, "draw"

    def _call_options(self, giver: int, tile: str) -> list[tuple[str, int, list[str]]]:
        kind, options = kind_of(tile), []
        for seat in self._others(giver):
            if self.riichi[seat]:
                continue
            same = [t for t in self.hands[seat] if kind_of(t) == kind]
            if len(same) >= 3 and len(self.kans) < 4 and self.live:
                options.append(("daiminkan", seat, same[:3]))
            if len(same) >= 2:
                options.append(("pon", seat, self.rng.sample(same, 2)))
        seat = (giver + 1) % self.n
        if self.n == 4 and tile[1] != "z" and not self.riichi[seat]:
            v, suit = number_of(tile), tile[1]
            for a, b in ((v - 2, v - 1), (v - 1, v + 1), (v + 1, v + 2)):
                pair = [self._find(seat, a, suit), self._find(seat, b, suit)]
                if a >= 1 and b <= 9 and None not in pair:
                    options.append(("chi", seat, pair))
        return options

    def _find(self, seat: int, number: int, suit: str) -> str | None:
        found = [t for t in self.hands[seat] if t[1] == suit and number_of(t) == number]
        return self.rng.choice(found) if found else None

    def _call(self, giver: int, tile: str, action: str, seat: int, own: list[str]) -> tuple[int, str]:
        """A RecordChiPengGang of the discard; the caller then discards (chi, pon) or draws (daiminkan)."""
        for t in own:
            self.hands[seat].remove(t)
        meld = [(t, seat) for t in own] + [(tile, giver)]
        if action == "chi":
            meld.sort(key=lambda pair: number_of(pair[0]))
        elif self._chance(0.3):
            self.rng.shuffle(meld)
        data: dict[str, Any] = {"type": ("chi", "pon", "daiminkan").index(action), "tiles": [t for t, _ in meld],
                                "froms": [f for _, f in meld]}  # fmt: skip
        self._seat_field(data, seat)
        self._accept(data)
        self._flags(data, waits=False)
        self._add("ChiPengGang", data)
        self.features[action] += 1
        self.is_open[seat], self.interrupted, self.drawn[seat] = True, True, None
        if action == "pon":
            self.pons[seat].add(kind_of(tile))
            self._bring_fourth(seat, kind_of(tile))
        if action != "daiminkan":
            return seat, "discard"
        self.kans.append(seat)
        self.new_doras += 1
        self.reveal_on = "deal" if self._chance(0.4) else "discard"
        return seat, "draw"

    # -- results
    def _ron(self, tile: str, giver: int) -> None:
        others = self._others(giver)
        k = 1 if self._chance(0.8) else min(len(others), self.rng.choice((2, 3)))
        self._hule(self.rng.sample(others, k), zimo=False, tile=tile, giver=giver)

    def _hule(self, winners: list[int], zimo: bool, tile: str = "", giver: int = -1) -> None:
        if zimo:
            tile = self.drawn[winners[0]] or ""
        winners.sort(key=lambda s: (s - giver) % self.n)
        ura = [self.dead.pop() for _ in self.doras] if any(self.riichi[s] for s in winners) else []
        hules, total = [], [0] * self.n
        for i, seat in enumerate(winners):
            h = self._win(seat, tile, zimo, ura)
            hules.append(h)
            for s, d in enumerate(self._win_deltas(seat, h, zimo, giver, first=i == 0)):
                total[s] += d
        data: dict[str, Any] = {"hules": hules}
        self._result_scores(data, total, self._chance(0.5))
        self.features[f"hule_{'tsumo' if zimo else len(winners)}"] += 1
        self._end("Hule", data, total)

    def _win(self, seat: int, tile: str, zimo: bool, ura: list[str]) -> dict[str, Any]:
        rng = self.rng
        hand = list(self.hands[seat])
        if zimo:
            hand.remove(tile)
        fans = [{"id": i, "val": rng.randint(1, 2)} for i in rng.sample(SAFE_FANS, rng.randint(1, 3))]
        if self.riichi[seat]:
            fans.insert(0, {"id": 2, "val": 1})
            if ura and rng.random() < 0.7:
                fans.append({"id": 33, "val": rng.randint(0, 2)})
        h: dict[str, Any] = {"hu_tile": tile, "zimo": zimo, "fans": fans, "fu": rng.choice((20, 30, 40, 50)),
                             "liqi": self.riichi[seat], "yiman": False}  # fmt: skip
        self._seat_field(h, seat)
        if rng.random() < 0.7:
            h["hand"] = hand
        if rng.random() < 0.5:
            h["count"] = sum(f["val"] for f in fans)
        if ura and rng.random() < 0.8:
            h["li_doras"] = ura
        if zimo:
            h["point_zimo_xian"] = rng.choice((300, 500, 1000, 2000))
            h["point_zimo_qin"] = 2 * h["point_zimo_xian"]
        else:
            h["point_rong"] = rng.choice((1000, 2000, 3900, 8000, 12000))
        return h

    def _win_deltas(self, seat: int, h: dict[str, Any], zimo: bool, giver: int, first: bool) -> list[int]:
        """results._formula's score changes of one win (no liable seat)."""
        deltas, honba = [0] * self.n, self.honba if first else 0
        deltas[seat] += 1000 * self.sticks if first else 0
        if not zimo:
            pay = h["point_rong"] + 100 * honba * (self.n - 1)
            deltas[giver] -= pay
            deltas[seat] += pay
            return deltas
        for other in self._others(seat):
            share = h["point_zimo_qin" if other == self.dealer else "point_zimo_xian"] + 100 * honba
            deltas[other] -= share
            deltas[seat] += share
        return deltas

    def _result_scores(self, data: dict[str, Any], deltas: list[int], old: bool) -> None:
        if old:
            data["old_scores"] = list(self.scores)
        if self._chance(0.7):
            data["delta_scores"] = deltas
        if self._chance(0.4):
            data["scores"] = [s + d for s, d in zip(self.scores, deltas, strict=True)]

    def _exhaustive(self) -> None:
        data: dict[str, Any] = {}
        self._accept(data)
        tenpai = [self._chance(0.4) for _ in range(self.n)]
        k = sum(tenpai)
        pot = 1000 * (self.n - 1)
        deltas = [0] * self.n if k in (0, self.n) else [pot // k if t else -pot // (self.n - k) for t in tenpai]
        if self._chance(0.9):
            data["players"] = [{"tingpai": t, **({"hand": list(self.hands[s])} if t and self._chance(0.6) else {})}
                               for s, t in enumerate(tenpai)]  # fmt: skip
        if self._chance(0.9):
            entry: dict[str, Any] = {"delta_scores": deltas}
            if self._chance(0.5):
                entry["old_scores"] = list(self.scores)
            data["scores"] = [entry]
        if self._chance(0.05):
            data["liujumanguan"] = True
        self.features["notile"] += 1
        self._end("NoTile", data, deltas if "scores" in data else [0] * self.n)

    def _liuju(self, kind: int, seat: int = 0) -> None:
        data: dict[str, Any] = {"type": kind}
        self._accept(data, may_fail=kind != 4)  # suucha riichi: four sticks on the table
        if kind == 1:
            self._seat_field(data, seat)
            data["tiles"] = list(self.hands[seat])
        self.features[f"liuju_{kind}"] += 1
        self._end("LiuJu", data, [0] * self.n)

    def _end(self, kind: str, data: dict[str, Any], deltas: list[int]) -> None:
        self._add(kind, data)
        self.table.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        dealer_kept = kind != "Hule" or any(h.get("seat", 0) == self.dealer for h in data["hules"])
        self.table.sticks = 0 if kind == "Hule" else self.sticks
        self.table.honba = self.honba + 1 if dealer_kept else 0
        raise RoundEnd


@dataclass
class Game:
    """A generated game: its records, its head (None: a plain list of records) and what it shows."""

    seed: int
    n_players: int
    red: bool
    head: dict[str, Any] | None
    records: list[Record]
    features: Counter

    def document(self, records: list[Record] | None = None, head: dict[str, Any] | None = None) -> Any:
        records = self.records if records is None else records
        head = self.head if head is None else head
        return records if head is None else {"head": head, "data": {"records": records}}

    def data(self) -> bytes:
        return json.dumps(self.document()).encode()


def make_head(rng: random.Random, n_players: int, red: bool) -> dict[str, Any]:
    """A friendly-room head with a detail rule (red fives by ``dora_count``), or a ranked one (red fives)."""
    uuid = "-".join(
        ["2301" + f"{rng.randint(1, 28):02d}"] + [f"{rng.getrandbits(4 * w):0{w}x}" for w in (8, 4, 4, 4, 12)]
    )
    level = "level3" if n_players == 3 else "level"
    accounts = [
        {"account_id": 100 + s, "seat": s, "nickname": f"P{s}", level: {"id": 10301 + s}} for s in range(n_players)
    ]
    mode = rng.choice((11, 12) if n_players == 3 else (1, 2))
    if red and rng.random() < 0.5:
        config = {"category": 2, "mode": {"mode": mode}, "meta": {"mode_id": 21 if n_players == 3 else 12}}
    else:
        config = {"category": 1, "mode": {"mode": mode, "detail_rule": {"dora_count": 3 if red else 0}}, "meta": {}}
    return {"uuid": uuid, "start_time": 1672531200 + rng.randint(0, 10**6), "config": config, "accounts": accounts}


def generate_game(seed: int) -> Game:
    """A game of one to four rounds, deterministic from the seed."""
    rng = random.Random(seed)
    n = 3 if rng.random() < 0.35 else 4
    red = rng.random() < 0.65
    head = make_head(rng, n, red) if not red or rng.random() < 0.7 else None
    table, features, records = Table([35000 if n == 3 else 25000] * n), Counter(), []
    n_rounds = rng.randint(1, 4)
    for round_no in range(n_rounds):
        records += RoundSim(rng, n, red, round_no, table, features).play()
    if rng.random() < 0.5:
        if head is not None and rng.random() < 0.5:
            head["result"] = {"players": [{"seat": s, "part_point_1": score, "total_point": 1000 * (score - 30000)}
                                          for s, score in enumerate(table.scores)]}  # fmt: skip
        else:
            records[-1]["data"]["gameend"] = {"scores": list(table.scores)}
    return Game(seed, n, red, head, records, features)


# --- the comparison ---------------------------------------------------------------------------------------------
@dataclass
class Tally:
    """What the reads saw: rounds the kernel played or refused, the actions of its rounds, outcomes."""

    compiled: int = 0
    flatten_refused: int = 0
    kernel_refused: int = 0
    actions: Counter = field(default_factory=Counter)
    red_events: int = 0
    flag_rows: int = 0
    read: int = 0
    errors: Counter = field(default_factory=Counter)
    mismatches: list[str] = field(default_factory=list)


def counting(tally: Tally) -> Callable[[Play, list], bool]:
    """``play_compiled`` that counts what it did into the tally."""

    def counted(play: Play, records: list) -> bool:
        done = play_compiled(play, records)
        if done and play.compiled is not None:
            tally.compiled += 1
            rows = play.compiled[0]
            tally.actions.update(ACTIONS[a] for a in rows.action.tolist())
            if play.ids.has_red_fives:
                tally.red_events += sum(t >= 0 and t // 4 in (4, 13, 22) and t % 4 == 0 for t in rows.tile.tolist())
            tally.flag_rows += 0 if play.compiled_flags is None else len(play.compiled_flags)
        elif flatten(records) is None:
            tally.flatten_refused += 1
        else:
            tally.kernel_refused += 1
        return done

    return counted


def python_only(play: Play, records: list) -> bool:
    return False


def error_of(exc: Exception) -> tuple[str, str, Any, Any, Any]:
    """A ParseError's (type, message, game, round, tag); any other exception, which ``parse`` should never let out,
    as ('crash: ' + its type, message)."""
    if isinstance(exc, ParseError):
        return type(exc).__name__, str(exc), getattr(exc, "game_id", None), exc.round_idx, exc.tag
    return f"crash: {type(exc).__name__}", str(exc), None, None, None


def read_outcome(data: bytes, compiled: Callable[[Play, list], bool]) -> Outcome:
    """The file's games as Arrow tables and its server flags (each: or the error), read with ``compiled`` as
    the parser's ``play_compiled``."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(parser_module, "play_compiled", compiled)
        try:
            games: Any = [{t: to_arrow(t, concat_buffers([g], t)) for t in g.tables} for g in parse(data, "g.json")]
        except Exception as exc:  # an error escaping parse is compared too
            games = error_of(exc)
        try:
            flags: Any = server_flags(data, "g.json")
        except Exception as exc:
            flags = error_of(exc)
    return games, flags


def same_tables(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) or isinstance(b, tuple):
        return a == b
    return len(a) == len(b) and all(x.keys() == y.keys() and all(x[t].equals(y[t]) for t in x)
                                    for x, y in zip(a, b, strict=True))  # fmt: skip


def compare(data: bytes, tally: Tally, label: str) -> bool:
    """Read the bytes both ways into the tally; False (noted as a mismatch) when the outcomes differ."""
    compiled = read_outcome(data, counting(tally))
    python = read_outcome(data, python_only)
    same = same_tables(compiled[0], python[0]) and compiled[1] == python[1]
    if not same:
        tally.mismatches.append(f"{label}: compiled {describe(compiled)} / python {describe(python)}")
    if isinstance(python[0], tuple):
        tally.errors[python[0][0]] += 1
    else:
        tally.read += 1
    return same


def describe(outcome: Outcome) -> str:
    games, _ = outcome
    if isinstance(games, tuple):
        return f"{games[0]} {games[1]!r}"
    return f"{len(games)} game(s), {sum(g['events'].num_rows for g in games)} events"


# --- mutants ----------------------------------------------------------------------------------------------------
PLAY_KINDS = ("DealTile", "DiscardTile", "ChiPengGang", "AnGangAddGang", "BaBei")
FIELDS = {
    "DealTile": ("seat", "tile", "zhenting", "doras", "liqi"),
    "DiscardTile": ("seat", "tile", "moqie", "is_liqi", "is_wliqi", "zhenting", "tingpais", "doras"),
    "ChiPengGang": ("seat", "type", "tiles", "froms", "zhenting", "liqi"),
    "AnGangAddGang": ("seat", "type", "tiles", "doras"),
    "BaBei": ("seat", "moqie", "doras"),
}
JUNK: list[Any] = [None, -1, 0, 1, 4, 1000, 1 << 40, -(1 << 62), True, False, "", "junk", "9z", "0z", 1.5, [], {},
                   [None], [[1]], "1m2m"]  # fmt: skip


def odd_value(rng: random.Random, key: str, old: Any, game: Game) -> Any:
    """Another value for a record's field: a plausible one (another tile, seat, type) or junk."""
    seats = list(range(-1, 5))
    tiles = TILE_NAMES + ["8z", "0z", "5", "m1"]
    if rng.random() < 0.25:
        return rng.choice(JUNK)
    if key == "seat":
        return rng.choice(seats + [True, "1", 1.0])
    if key == "tile" or (key == "tiles" and isinstance(old, str)):
        return red_swap(old) if rng.random() < 0.3 and isinstance(old, str) else rng.choice(tiles)
    if key == "type":
        return rng.choice([-1, 0, 1, 2, 3, 4, 9, "1", True, 2.0])
    if key in ("tiles", "froms") and isinstance(old, list):
        return odd_list(rng, old, tiles if key == "tiles" else seats + [True, "0"])
    if key == "zhenting":
        return rng.choice(["abc", -1, 1, True, [1, 0], [None, "x", 0, []], [True] * 6, {"0": True}, [0, 1, 1, 1],
                           [rng.random() < 0.5 for _ in range(game.n_players)]])  # fmt: skip
    if key == "tingpais":
        return rng.choice(["1m", [{"tile": "0m"}], [{"tile": 5}], [{}], ["1m"], {"tile": "1m"}, [None], True, 3,
                           [{"tile": "8z"}], [{"tile": t} for t in rng.sample(TILE_NAMES, 3)]])  # fmt: skip
    if key == "doras":
        return odd_doras(rng, old if isinstance(old, list) else [])
    if key == "liqi":
        seat = old.get("seat", 0) if isinstance(old, dict) else 0
        return rng.choice([{"seat": (seat + 1) % 4}, {"seat": "1"}, {"seat": -1}, {"seat": True}, {"failed": "yes"},
                           "x", [], {}, {"seat": seat, "failed": True}, {"seat": 4}, {"seat": seat, "failed": 0},
                           {"seat": seat}])  # fmt: skip
    return rng.choice([True, False, 0, 1, "no", [0], 2])


def red_swap(tile: Any) -> Any:
    """'5m' <-> '0m'; other tiles unchanged."""
    if isinstance(tile, str) and len(tile) == 2 and tile[0] in "05" and tile[1] in "mps":
        return ("0" if tile[0] == "5" else "5") + tile[1]
    return tile


def odd_list(rng: random.Random, old: list, pool: list) -> list:
    new = list(old)
    choice = rng.randrange(4)
    if choice == 0 and new:
        new[rng.randrange(len(new))] = rng.choice(pool)
    elif choice == 1 and new:
        del new[rng.randrange(len(new))]
    elif choice == 2:
        new.append(rng.choice(pool))
    else:
        new = [red_swap(t) for t in new]
    return new


def odd_doras(rng: random.Random, old: list) -> Any:
    other = rng.choice(TILE_NAMES)
    return rng.choice(["1m", [*old, 2], [*old, "0m"], [*old, other], [], None, old[:-1], [other, *old[1:]],
                       [other] * 17, old * 2, [None], [red_swap(t) for t in old]])  # fmt: skip


def mutate(game: Game, rng: random.Random) -> Any:
    """A copy of the game's document with one change (a field, a record, or the head's red-five rule)."""
    records, head = copy.deepcopy(game.records), copy.deepcopy(game.head)
    plays = [i for i, r in enumerate(records) if r["name"].removeprefix(".lq.Record") in PLAY_KINDS]
    roll = rng.random()
    if roll < 0.15 and plays:
        another_held_tile(records, rng.choice(plays), rng)
    elif roll < 0.7 and plays:
        set_field(records[rng.choice(plays)], rng, game)
    elif roll < 0.78:
        set_field(records[rng.randrange(len(records))], rng, game)
    elif roll < 0.95:
        move_records(records, rng, plays)
    elif head is not None and "detail_rule" in head["config"]["mode"]:
        head["config"]["mode"]["detail_rule"]["dora_count"] = 0 if game.red else 3
    else:
        set_field(records[rng.choice(plays or [0])], rng, game)
    return game.document(records, head)


def set_field(record: Record, rng: random.Random, game: Game) -> None:
    data = record["data"]
    kind = record["name"].removeprefix(".lq.Record")
    keys = sorted(set(FIELDS.get(kind, ())) | set(data))
    key = rng.choice(keys)
    if key in data and rng.random() < 0.15:
        del data[key]
    else:
        data[key] = odd_value(rng, key, data.get(key), game)


def another_held_tile(records: list[Record], at: int, rng: random.Random) -> None:
    """Set the record's tile to another one its seat may hold: dealt it, or drawn since the deal."""
    data = records[at]["data"]
    seat, key = (
        data.get("seat", 0),
        "tiles" if records[at]["name"].endswith(("ChiPengGang", "AnGangAddGang")) else "tile",
    )
    seen: list[str] = []
    for record in reversed(records[:at]):
        if record["name"].endswith("NewRound"):
            seen += record["data"].get(f"tiles{seat}") or []
            break
        if record["name"].endswith("DealTile") and record["data"].get("seat", 0) == seat:
            seen.append(record["data"]["tile"])
    if not seen:
        return
    if key == "tiles" and isinstance(data.get(key), list) and data[key]:
        data[key][rng.randrange(len(data[key]))] = rng.choice(seen)
    else:
        data[key] = rng.choice(seen)


def move_records(records: list[Record], rng: random.Random, plays: list[int]) -> None:
    at = rng.choice(plays) if plays and rng.random() < 0.8 else rng.randrange(len(records))
    choice = rng.randrange(3)
    if choice == 0:
        del records[at]
    elif choice == 1:
        records.insert(at, copy.deepcopy(records[at]))
    elif at + 1 < len(records):
        records[at], records[at + 1] = records[at + 1], records[at]


# --- the tests --------------------------------------------------------------------------------------------------
def games() -> Iterator[Game]:
    return (generate_game(seed) for seed in range(N_GAMES))


@pytest.fixture(scope="module")
def clean() -> tuple[Tally, Counter, int]:
    """The generated games read both ways: the tally, the features they show, their rounds."""
    tally, features, n_rounds = Tally(), Counter(), 0
    for game in games():
        compare(game.data(), tally, f"game {game.seed}")
        features.update(game.features)
        features["sanma" if game.n_players == 3 else "yonma"] += 1
        features["red" if game.red else "no_red"] += 1
        n_rounds += sum(r["name"].endswith("NewRound") for r in game.records)
    return tally, features, n_rounds


@pytest.fixture(scope="module")
def mutants() -> Tally:
    tally = Tally()
    rng = random.Random(2024)
    bases = list(games())
    for i in range(N_MUTANTS):
        game = bases[i % len(bases)]
        compare(json.dumps(mutate(game, rng)).encode(), tally, f"mutant {i} of game {game.seed}")
    return tally


def test_generated_games_read_the_same_either_way(clean: tuple[Tally, Counter, int]) -> None:
    tally, _, _ = clean
    assert tally.mismatches == []


def test_generated_games_are_legal_and_varied(clean: tuple[Tally, Counter, int]) -> None:
    tally, features, _ = clean
    assert tally.read >= 0.9 * N_GAMES, tally.errors
    for name in ("sanma", "yonma", "red", "no_red", "ankan", "kakan", "daiminkan", "pon", "chi", "kita", "riichi",
                 "double_riichi", "liqi_named", "liqi_failed", "zhenting", "tingpais", "hand_copy_of_drawn",
                 "red_drawn", "dora_on_kan", "dora_on_deal", "dora_on_discard", "ron_of_kan", "hule_tsumo", "hule_1",
                 "hule_2", "notile", "liuju_1"):  # fmt: skip
        assert features[name] > 0, name


def test_the_kernel_plays_the_generated_rounds(clean: tuple[Tally, Counter, int]) -> None:
    tally, _, n_rounds = clean
    # every round is played twice (parse, then server_flags) on the compiled side
    assert tally.compiled >= 0.9 * 2 * n_rounds, (tally.compiled, tally.flatten_refused, tally.kernel_refused)
    for action in ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita", "riichi",
                   "riichi_accepted", "dora"):  # fmt: skip
        assert tally.actions[action] > 0, action
    assert tally.red_events > 0 and tally.flag_rows > 0


def test_mutants_read_the_same_either_way(mutants: Tally) -> None:
    assert mutants.mismatches == []


def test_mutants_reach_errors_refusals_and_the_kernel(mutants: Tally) -> None:
    assert sum(mutants.errors.values()) >= 0.2 * N_MUTANTS, mutants.errors
    assert mutants.read >= 0.2 * N_MUTANTS
    assert mutants.flatten_refused > 0 and mutants.kernel_refused > 0 and mutants.compiled > 0


# --- hand-made rounds: the kernel's limits, and the discrepancies found ---------------------------------------------
HANDS = ("258m 258p 258s 667z 9m 1z", "369m 369p 369s 776z 1m", "147m 147p 147s 1234z", "234m 345p 678s 22s 45s")
"""East 1's deal: the dealer (seat 0) holds 14 tiles, its drawn tile the last, '1z'."""


def split_tiles(text: str) -> list[str]:
    """'123m 4p' -> ['1m', '2m', '3m', '4p']."""
    return [d + group[-1] for group in text.split() for d in group[:-1]]


def unused_tiles() -> list[str]:
    """The tiles left in the wall after HANDS and the indicator '1s' (no red fives: a plain list)."""
    left = Counter({f"{n}{s}": 4 for s in "mps" for n in range(1, 10)} | {f"{n}z": 4 for n in range(1, 8)})
    left.subtract(split_tiles(" ".join(HANDS)) + ["1s"])
    return sorted(left.elements())


def tiny_round(plays: list[Record], result: Record | None = None, **new_round: Any) -> list[Record]:
    """East 1 dealt from HANDS, the play records, the result (by default an exhaustive draw without details)."""
    deal = {"chang": 0, "ju": 0, "ben": 0, "liqibang": 0, "scores": [25000] * 4, "doras": ["1s"],
            **{f"tiles{seat}": split_tiles(hand) for seat, hand in enumerate(HANDS)}, **new_round}  # fmt: skip
    return [rec("NewRound", deal), *plays, result or rec("NoTile", {})]


def riichi_passed(**new_round: Any) -> list[Record]:
    """The dealer declares riichi on its first discard; seat 1's draw accepts it; exhaustive draw with the scores
    the records start from (a wrong old_scores: the error prints the running scores)."""
    return tiny_round([rec("DiscardTile", {"seat": 0, "tile": "1z", "moqie": True, "is_liqi": True}),
                       rec("DealTile", {"seat": 1, "tile": "6p"})],
                      rec("NoTile", {"scores": [{"old_scores": [0] * 4}]}), **new_round)  # fmt: skip


def many_draws() -> list[Record]:
    """Seat 1 draws twenty tiles without a discard: it holds 33, more than the kernel's MAX_HELD."""
    return tiny_round([rec("DealTile", {"seat": 1, "tile": t}) for t in unused_tiles()[:20]])


def many_doras() -> list[Record]:
    """Seventeen new indicators on one draw: more than the kernel's MAX_DORA."""
    doras = ["1s", *unused_tiles()[::4][:17]]
    return tiny_round([rec("DealTile", {"seat": 1, "tile": unused_tiles()[-1], "doras": doras})])


BIG = 1 << 63
"""One past int64: JSON integers have no bound, the kernel's arrays do."""


def with_field(records: list[Record], index: int, **data: Any) -> list[Record]:
    records = copy.deepcopy(records)
    records[index]["data"].update(data)
    return records


def overflow_case(name: str, records: list[Record]) -> Any:
    """A round with an integer past int64 (the kernel's arrays): flat.py and fast.py leave it to play.py."""
    return pytest.param(records, id=name)


BASE = riichi_passed()
EDGE_CASES = [
    pytest.param(many_draws(), id="more-held-tiles-than-the-kernel-holds"),
    pytest.param(many_doras(), id="more-indicators-than-the-kernel-holds"),
    pytest.param(riichi_passed(), id="riichi-then-wrong-old-scores"),
    overflow_case("seat-beyond-int64", with_field(BASE, 1, seat=BIG)),
    overflow_case("negative-seat-beyond-int64", with_field(BASE, 2, seat=-BIG - 1)),
    overflow_case("liqi-seat-beyond-int64", with_field(BASE, 2, liqi={"seat": BIG})),
    overflow_case("kan-type-beyond-int64", tiny_round([rec("AnGangAddGang", {"seat": 0, "type": BIG, "tiles": "6z"})])),
    overflow_case("liqibang-beyond-int64", riichi_passed(liqibang=BIG)),
    overflow_case("score-beyond-int64", riichi_passed(scores=[BIG, 25000, 25000, 25000])),
    pytest.param(riichi_passed(scores=[-BIG + 500, 25000, 25000, 25000]), id="score-near-int64-minimum"),
]  # fmt: skip


@pytest.mark.parametrize("records", EDGE_CASES)
def test_hand_made_rounds_read_the_same_either_way(records: list[Record]) -> None:
    tally = Tally()
    compare(json.dumps(records).encode(), tally, "round")
    assert tally.mismatches == []


def test_the_kernel_refuses_what_it_cannot_hold_and_play_py_reads_it() -> None:
    for records in (many_draws(), many_doras()):
        tally = Tally()
        assert compare(json.dumps(records).encode(), tally, "round")
        assert (tally.read, tally.compiled, tally.kernel_refused) == (1, 0, 2)
