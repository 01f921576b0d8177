"""The result of a kyoku as wins and draws rows (the XML's AGARI and RYUUKYOKU).

Scores before a result are the kyoku's starting scores less the riichi sticks paid in it (and, for a
second ron, after the first winner's payments), as the XML's ``sc`` shows them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.base import RoundOutcome
from pipeline.sources.tenhou_json.codes import DRAW_RESULTS, PLAIN_INT, PLAIN_STR, WIN_RESULT, parse_score, parse_yaku
from pipeline.sources.tenhou_json.round import Kyoku
from pipeline.sources.tenhou_xml.codes import yaku_name
from rules.scoring.yaku import DOUBLE_YAKUMAN, YAKUMAN_HAN

RIICHI_YAKU = frozenset({1, 21})
"""Tenhou yaku ids of riichi and double riichi."""

URA_DORA = 53
"""Tenhou yaku id of ura dora: the XML lists it (0 han) on every riichi win; Tenhou's JSON omits 0 han."""

RED_IDS = frozenset({16, 52, 88})


def result_deltas(value: Any) -> list[int]:
    """A result's score changes per seat (a three-seat list gets a 0 for the fourth seat)."""
    if type(value) is list and 3 <= len(value) <= 4 and PLAIN_INT.issuperset(map(type, value)):  # plain ints at C speed
        return value + [0] if len(value) == 3 else list(value)
    if not isinstance(value, list) or len(value) < 3 or not all(isinstance(v, int | float) for v in value):
        raise ParseError(f"malformed score changes {value!r}")
    return ([int(v) for v in value] + [0])[:4]


def _merged(parsed: list[tuple[int, int, bool]]) -> tuple[list[int], list[int]]:
    """Yaku ids and han, the entries of one id summed at its first place: kita (抜きドラ, which the JSON lists
    apart) join the dora, as Tenhou's XML counts them (one id 52 entry)."""
    ids: list[int] = []
    han: list[int] = []
    for yaku, value, _ in parsed:
        if yaku in ids:
            han[ids.index(yaku)] += value
        else:
            ids.append(yaku)
            han.append(value)
    return ids, han


def _yaku(
    entries: list[Any], seat_wind: int, round_wind: int, double_yakuman: bool
) -> tuple[list[int], list[int], bool]:
    """Yaku ids, han each and whether the hand is a yakuman, from a win's yaku entries and the winner's winds:
    kita merged into the dora, Tenhou's 0-han ura dora restored, and (``double_yakuman``: the game's rules
    count them twice) the double yakuman a converter writes as '(役満)' at 26 han."""
    if PLAIN_STR.issuperset(map(type, entries)):  # strings: the same lists come back game after game
        ids, han, is_yakuman = _string_yaku(tuple(entries), seat_wind, round_wind, double_yakuman)
        return list(ids), list(han), is_yakuman
    return _read_yaku(entries, seat_wind, round_wind, double_yakuman)


@functools.lru_cache(maxsize=4096)  # errors are not kept: they are raised again
def _string_yaku(
    entries: tuple[str, ...], seat_wind: int, round_wind: int, double_yakuman: bool
) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """_yaku of string entries, as tuples (the callers get their own lists)."""
    ids, han, is_yakuman = _read_yaku(entries, seat_wind, round_wind, double_yakuman)
    return tuple(ids), tuple(han), is_yakuman


def _read_yaku(
    entries: Sequence[Any], seat_wind: int, round_wind: int, double_yakuman: bool
) -> tuple[list[int], list[int], bool]:
    """_yaku, read entry by entry."""
    parsed = [parse_yaku(e, seat_wind, round_wind) for e in entries]
    ids, han = _merged(parsed)
    if double_yakuman:
        han = [2 * h if y in DOUBLE_YAKUMAN and h == YAKUMAN_HAN else h for y, h in zip(ids, han, strict=True)]
    if RIICHI_YAKU & set(ids) and URA_DORA not in ids:
        ids.append(URA_DORA)
        han.append(0)
    return ids, han, any(p[2] for p in parsed)


class OutcomeBuilder:
    """Builds a kyoku's wins and draws rows (riichi payments read from its replayed events)."""

    def __init__(self, kyoku: Kyoku, n_players: int, has_red_fives: bool, double_yakuman: bool = False) -> None:
        self.kyoku = kyoku
        self.n_players = n_players
        self.red = has_red_fives
        self.double_yakuman = double_yakuman
        self.scores = list(kyoku.scores)
        self.sticks = kyoku.riichi_sticks
        self.riichi_seats = kyoku.ids.rows.riichi_seats()
        for seat in kyoku.ids.rows.accepted_riichi():
            self.scores[seat] -= 1000
            self.sticks += 1

    def build(self) -> RoundOutcome:
        """Return the rows of the result; raises ParseError / UnknownCodeError on a malformed one."""
        result = self.kyoku.result
        out = RoundOutcome()
        if result[0] == WIN_RESULT:
            for index in range(1, len(result) - 1, 2):
                out.wins.append(self._win(len(out.wins), result_deltas(result[index]), result[index + 1], out.quirks))
        else:
            out.draws.append(self._draw(result, out.quirks))
        out.scores_post = list(self.scores)
        return out

    def _apply(self, deltas: list[int]) -> list[int]:
        """Apply a result's score changes; return the scores before them."""
        before = list(self.scores)
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        return before

    def _win(self, win_idx: int, deltas: list[int], detail: list[Any], quirks: set[str]) -> dict[str, Any]:
        seat, from_seat, pao = win_seats(detail, self.n_players)
        is_tsumo = seat == from_seat
        fu, points, limit, yaku, yaku_han, is_yakuman = win_labels(detail, is_tsumo, self.n_players,
                                                                   (seat - self.kyoku.dealer) % self.n_players,
                                                                   self.kyoku.round_wind, self.double_yakuman, quirks)
        ids = self.kyoku.ids
        tile = self._winning_tile(seat, is_tsumo)
        hand = sorted(ids.held[seat] + ([] if is_tsumo else [tile]))
        sticks = self.sticks if win_idx == 0 else 0
        return {
            "win_idx": win_idx, "seat": seat, "from_seat": from_seat, "is_tsumo": is_tsumo,
            "pao_seat": pao if pao != seat else None, "tile": tile, "tile34": tile // 4,
            "is_red": self.red and tile in RED_IDS, "hand": hand,
            "melds": [list(m) for m in reversed(ids.melds[seat])],  # newest first, as the XML lists them
            "n_kita": ids.n_kita[seat], "fu": fu, "han": sum(yaku_han), "points": points, "limit_name": limit,
            "yaku": yaku, "yaku_names": [yaku_name(y) for y in yaku], "yaku_han": yaku_han,
            "is_yakuman": is_yakuman, "dora_indicators": list(ids.dora),
            "ura_indicators": list(ids.ura) if seat in self.riichi_seats else [],
            "honba": self.kyoku.honba, "riichi_sticks": sticks, "scores_pre": self._apply(deltas),
            "score_deltas": deltas,
        }  # fmt: skip

    def _winning_tile(self, seat: int, is_tsumo: bool) -> int:
        """The id won on: the last tile given (ron, chankan) or the winner's last draw (tsumo)."""
        ids = self.kyoku.ids
        if not is_tsumo:
            return ids.last_given
        last = ids.last_draw[seat] if ids.last_draw is not None else (ids.rows.draws_of(seat) or [-1])[-1]
        if last < 0 or self.kyoku.replay.last_actor != seat:
            raise ParseError(f"tsumo by seat {seat}, who did not draw last")
        return last

    def _draw(self, result: list[Any], quirks: set[str]) -> dict[str, Any]:
        name = result[0]
        kind = DRAW_RESULTS[name]
        deltas = result_deltas(result[1]) if len(result) > 1 else [0, 0, 0, 0]
        seated = [bool(self.kyoku.ids.hands_start[s]) for s in range(4)]
        shown = shown_seats(name, kind, deltas, seated, self.kyoku.replay.last_actor, quirks)
        held = self.kyoku.ids.held
        return {
            "kind": kind, "is_abortive": kind not in ("exhaustive", "nagashi_mangan"), "honba": self.kyoku.honba,
            "riichi_sticks": self.sticks, "is_shown": shown, "n_shown": sum(shown),
            "hands_shown": [sorted(held[s]) if shown[s] else [] for s in range(4)],
            "scores_pre": self._apply(deltas), "score_deltas": deltas,
        }  # fmt: skip



def win_seats(detail: list[Any], n_players: int) -> tuple[int, int, int]:
    """A win detail's winner, the seat it wins from (itself for a tsumo) and the liable seat (the winner when
    none); raises ParseError for a seat out of range."""
    seat, from_seat, pao = (int(v) for v in detail[:3])
    if not all(0 <= v < n_players for v in (seat, from_seat, pao)):
        raise ParseError(f"win detail names a seat out of range: {detail!r}")
    return seat, from_seat, pao


WinLabels = tuple[int | None, int, str, list[int], list[int], bool]
"""fu, points, limit name, yaku ids, han each, is_yakuman."""


def win_labels(detail: list[Any], is_tsumo: bool, n_players: int, seat_wind: int, round_wind: int,
               double_yakuman: bool, quirks: set[str]) -> WinLabels:  # fmt: skip
    """A win's fu, points, limit name, yaku ids, han each and whether it is a yakuman, from its detail's score string
    and yaku entries (``seat_wind``: the winner's; sanma: East, South, West in turn order); a detail without them
    gives none of them (quirk ``win_without_score``)."""
    if len(detail) < 4:
        quirks.add("win_without_score")
        return None, 0, "", [], [], False
    score = parse_score(detail[3], is_tsumo, n_players)
    # limit hands ('満貫8000点') are written without their fu: not recorded, null
    fu = score.fu if score.fu or not score.limit_name else None
    yaku, yaku_han, is_yakuman = _yaku(detail[4:], seat_wind, round_wind, double_yakuman)
    return fu, score.points, score.limit_name, yaku, yaku_han, is_yakuman


def shown_seats(name: str, kind: str, deltas: list[int], seated: list[bool], last_actor: int,
                quirks: set[str]) -> list[bool]:  # fmt: skip
    """Seats whose hand the XML would show at a draw (``name``: the JSON's result name, ``seated``: the seats dealt a
    hand, ``last_actor``: the seat that acted last): tenpai seats at an exhaustive draw (from the noten payments),
    the declarer of kyuushu kyuuhai, every hand at suucha riichi, the three winners at sanchahou, none at suufon
    renda and suukaikan."""
    if kind == "kyuushu_kyuuhai":
        return [s == last_actor for s in range(4)]
    if kind == "suucha_riichi":
        return seated
    if kind == "sanchahou":
        return [seated[s] and s != last_actor for s in range(4)]
    if kind != "exhaustive" and kind != "nagashi_mangan":
        return [False] * 4
    if name == "全員聴牌":
        return seated
    if name == "全員不聴":
        return [False] * 4
    if kind == "nagashi_mangan" or not any(deltas):
        quirks.add("draw_tenpai_unrecorded")
        return [False] * 4
    return [seated[s] and deltas[s] > 0 for s in range(4)]
