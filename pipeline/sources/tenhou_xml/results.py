"""The result elements of a round: AGARI (a win; several in a row = multiple ron) and RYUUKYOKU."""

from __future__ import annotations

from pipeline.errors import ParseError
from pipeline.sources.tenhou_xml.codes import YAKU_NAMES, draw_kind, limit_name, yaku_name
from pipeline.sources.tenhou_xml.melds import Meld, decode_meld
from pipeline.sources.tenhou_xml.state import INT16, INT32, GameState, bounded, ints_attr, tiles_attr

_RED_FIVES = frozenset({16, 52, 88})


def _scores(attrs: dict[str, str], state: GameState) -> tuple[list[int], list[int]]:
    """Split sc="s0,d0,s1,d1,..." (hundreds) into scores before and deltas, full points.

    Custom lobbies append chip values after the eight score values; they are ignored here.
    """
    if "+" in attrs["sc"]:
        state.quirks.add("signed_scores")
    values = ints_attr(attrs["sc"])
    if len(values) < 8:
        raise ParseError(f"sc has {len(values)} values, expected 8")
    points = bounded([v * 100 for v in values[:8]], INT32, "sc", "AGARI" if "ten" in attrs else "RYUUKYOKU")
    return points[0::2], points[1::2]


def _honba_sticks(attrs: dict[str, str], state: GameState) -> tuple[int, int]:
    """ba="honba,sticks"; bot-written logs may omit it: the round's own counters then stand."""
    ba = ints_attr(attrs.get("ba", ""))
    if len(ba) >= 2:
        bounded(ba[:2], INT16, "ba", "AGARI" if "ten" in attrs else "RYUUKYOKU")
        return ba[0], ba[1]
    return state.round["honba"], state.round["riichi_sticks"]


def _yaku_names(yaku_ids: list[int]) -> list[str]:
    """The names of Tenhou yaku ids; raises UnknownCodeError (codes.yaku_name) for an unknown one."""
    known = len(YAKU_NAMES)
    return [YAKU_NAMES[y] if 0 <= y < known else yaku_name(y) for y in yaku_ids]


def check_hand(hand: list[int], melds: list[Meld], win_tile: int) -> None:
    """Raise ParseError unless the closed tiles and the melds (three tiles each, a kan's fourth replaced) make a
    hand of 14 (13 when the log leaves the winning tile out of hai), with no tile held twice."""
    size = len(hand) + 3 * len(melds) + (win_tile not in hand)
    if size != 14:
        raise ParseError(f"hai of {len(hand)} tiles and {len(melds)} melds do not make a winning hand of 14",
                         tag="AGARI")  # fmt: skip
    tiles = hand + [t for m in melds for t in m.tiles]
    if len(set(tiles)) != len(tiles):
        twice = sorted({t for t in tiles if tiles.count(t) > 1})
        raise ParseError(f"tile {twice[0]} is held twice in the winning hand (hai and m)", tag="AGARI")


class ResultReader:
    """Turns AGARI and RYUUKYOKU elements into wins and draws rows of a GameState."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def agari(self, attrs: dict[str, str], index: int) -> None:
        """AGARI: one win row; owari closes the game."""
        state = self.state
        state.require_round("AGARI")
        seat, from_seat = state.seat(int(attrs["who"]), "AGARI"), state.seat(int(attrs["fromWho"]), "AGARI", "fromWho")
        fu, points, limit = ints_attr(attrs["ten"])[:3]
        if not (-INT16 <= fu < INT16 and -INT32 <= points < INT32):  # rare: let bounded name the value
            bounded([fu], INT16, "ten", "AGARI")
            bounded([points], INT32, "ten", "AGARI")
        yaku_ids, yaku_han = self._yaku(attrs)
        bounded([*yaku_han, sum(yaku_han)], INT16, "yaku", "AGARI")
        before, deltas = _scores(attrs, state)
        honba, sticks = _honba_sticks(attrs, state)
        win_tile = tiles_attr(attrs["machi"])[0]
        hand = tiles_attr(attrs["hai"])
        melds = [decode_meld(code) for code in ints_attr(attrs.get("m", ""))]
        if win_tile not in hand:
            state.quirks.add("winning_tile_not_in_hand")
        called = [m for m in melds if m.action != "kita"]
        check_hand(hand, called, win_tile)
        red = state.rules is not None and state.rules.has_red_fives
        # in state.WIN_FIELDS order
        # fmt: off
        state.win_rows.append((
            state.round_idx, state.round["n_winners"], seat, from_seat, seat == from_seat,
            state.seat(int(attrs["paoWho"]), "AGARI", "paoWho") if attrs.get("paoWho") else None,
            win_tile, win_tile >> 2, red and win_tile in _RED_FIVES, hand,
            [list(m.tiles) for m in called], len(melds) - len(called),
            fu, sum(yaku_han), points, limit_name(limit), yaku_ids, _yaku_names(yaku_ids), yaku_han,
            "yakuman" in attrs, tiles_attr(attrs.get("doraHai")), tiles_attr(attrs.get("doraHaiUra")), honba,
            sticks, before, deltas, index,
        ))
        # fmt: on
        state.result_recorded(True, [b + d for b, d in zip(before, deltas, strict=True)])
        self.owari(attrs)

    @staticmethod
    def _yaku(attrs: dict[str, str]) -> tuple[list[int], list[int]]:
        """Return (yaku ids, han each): yaku="id,han,..." pairs, or yakuman="id,..." at 13 each."""
        if attrs.get("yakuman"):
            ids = ints_attr(attrs["yakuman"])
            return ids, [13] * len(ids)
        pairs = ints_attr(attrs.get("yaku", ""))
        if len(pairs) % 2:
            raise ParseError(f"odd number of values in yaku={attrs['yaku']!r}", tag="AGARI")
        return pairs[0::2], pairs[1::2]

    def ryuukyoku(self, attrs: dict[str, str], index: int) -> None:
        """RYUUKYOKU: one draw row, with the hands shown (the tenpai seats at an exhaustive draw)."""
        state = self.state
        state.require_round("RYUUKYOKU")
        kind = draw_kind(attrs.get("type", ""))
        shown = [tiles_attr(attrs.get(f"hai{s}")) if f"hai{s}" in attrs else [] for s in range(4)]
        if "sc" in attrs:
            before, deltas = _scores(attrs, state)
        else:  # bot-written logs may omit sc: nothing changed hands
            before, deltas = list(state.round["scores_pre"]), [0, 0, 0, 0]
        honba, sticks = _honba_sticks(attrs, state)
        buf = state.tables["draws"]
        row = {
            "round_idx": state.round_idx, "kind": kind,
            "is_abortive": kind not in ("exhaustive", "nagashi_mangan"), "honba": honba,
            "riichi_sticks": sticks, "is_shown": [f"hai{s}" in attrs for s in range(4)],
            "n_shown": sum(f"hai{s}" in attrs for s in range(4)), "hands_shown": shown,
            "scores_pre": before, "score_deltas": deltas, "source_index": index,
        }  # fmt: skip
        for name, value in row.items():
            buf[name].append(value)
        state.result_recorded(False, [b + d for b, d in zip(before, deltas, strict=True)])
        self.owari(attrs)

    def owari(self, attrs: dict[str, str]) -> None:
        """owari="score0,points0,...": the game's end, final scores (hundreds) and game points.

        An empty owari (written by bots that stop a game early) records no final scores: the game
        stays incomplete.
        """
        if "owari" in attrs and not attrs["owari"]:
            self.state.quirks.add("empty_owari")
        if not attrs.get("owari"):
            return
        values = attrs["owari"].split(",")
        n_players = self.state.rules.n_players if self.state.rules else 4
        self.state.final = [(int(values[2 * s]) * 100, float(values[2 * s + 1])) for s in range(n_players)]
        bounded([score for score, _ in self.state.final], INT32, "owari", "AGARI" if "ten" in attrs else "RYUUKYOKU")
        self.state.is_complete = True
