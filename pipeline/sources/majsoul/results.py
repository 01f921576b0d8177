"""The result of a round as wins and draws rows: RecordHule, RecordNoTile, RecordLiuJu.

Wins: one row per HuleInfo, nearest the discarder first (win_idx 0, 1, 2: a triple ron is three wins).
Score changes: a single win takes the record's ``delta_scores`` (else ``scores`` less the running scores,
else the points); several wins split them by their points, honba and sticks to the first, and the split
must add up to ``delta_scores``. Yaku are Tenhou ids (codes.FAN_TO_YAKU), yakuman 13 han per multiple;
a riichi win lists ura dora (0 han when none), as Tenhou does. Draws show the hands Tenhou's XML shows:
the tenpai seats at an exhaustive draw, the declarer at kyuushu kyuuhai, every hand at suucha riichi.
"""

from __future__ import annotations

from typing import Any

from pipeline.errors import ParseError
from pipeline.sources.majsoul.codes import LIUJU_KINDS, RED_KINDS, lookup, parse_tile, yaku_of_fan
from pipeline.sources.majsoul.document import Record
from pipeline.sources.majsoul.play import Play
from pipeline.sources.tenhou_xml.codes import yaku_name

RIICHI_YAKU = frozenset({1, 21})
"""Tenhou ids of riichi and double riichi."""

URA_DORA = 53
"""Tenhou id of ura dora."""

PAO_FANS = ((37, range(31, 34), 3), (50, range(27, 31), 4))
"""(fan id, value-tile kinds, melds needed): daisangen (dragons), daisuushii (winds)."""


def _padded(values: Any, n_players: int) -> list[int] | None:
    """A per-seat score list padded to four seats; None when absent."""
    if not values:
        return None
    if len(values) != n_players or not all(isinstance(v, int) for v in values):
        raise ParseError(f"malformed per-seat scores {values!r}")
    return [int(v) for v in values] + [0] * (4 - n_players)


def _apply(play: Play, deltas: list[int]) -> list[int]:
    """Apply score changes to the running scores; return the scores before them."""
    before = list(play.scores)
    play.scores = [s + d for s, d in zip(play.scores, deltas, strict=True)]
    return before


def _check_old_scores(play: Play, old: Any) -> None:
    """The record's scores before its result must be the running ones (riichi sticks deducted)."""
    if _padded(old, play.n_players) not in (None, play.scores):
        raise ParseError(f"the result starts from scores {old}, the records give {play.scores[: play.n_players]}")


def _id_key(play: Play, tile: int) -> tuple[int, bool]:
    return tile // 4, play.ids.has_red_fives and tile // 4 in RED_KINDS and tile % 4 == 0


def _check_tiles(play: Play, texts: list[Any], ids: list[int], what: str) -> None:
    """The tile strings the record shows must be the tracked ids (kind and red five)."""
    if sorted(parse_tile(t) for t in texts) != sorted(_id_key(play, t) for t in ids):
        raise ParseError(f"{what} shows {sorted(texts)}, the records give other tiles")


# --- wins --------------------------------------------------------------------------------------------
def hule_rows(play: Play, record: Record, honba: int, round_wind: int) -> list[dict[str, Any]]:
    """The wins rows of a RecordHule (applied to the running scores)."""
    hules = [h for h in record.data.get("hules") or [] if isinstance(h, dict)]
    if not hules:
        raise ParseError("RecordHule without a win")
    hules.sort(key=lambda h: 0 if h.get("zimo") else (play.seat_of(h) - play.last_giver) % play.n_players)
    _check_old_scores(play, record.data.get("old_scores"))
    wins = [_win(play, h, round_wind) for h in hules]
    deltas = _win_deltas(play, record, wins, hules, honba)
    ura = [play.ids.new(t) for t in max((h.get("li_doras") or [] for h in hules), key=len)]
    rows = []
    for win_idx, (win, h, delta) in enumerate(zip(wins, hules, deltas, strict=True)):
        first = win_idx == 0
        sticks = play.sticks if first else 0
        bonus = 1000 * sticks + (100 * honba * (play.n_players - 1) if first else 0)
        points = _hand_points(play, win, h) or delta[win["seat"]] - bonus
        is_riichi = win["seat"] in play.riichi_seats or bool(h.get("liqi"))
        rows.append({
            **win, "win_idx": win_idx, "points": points, "limit_name": limit_name(win["han"], win["fu"],
            win["is_yakuman"]), "dora_indicators": list(play.dora), "ura_indicators": ura if is_riichi else [],
            "honba": honba, "riichi_sticks": sticks, "scores_pre": _apply(play, delta), "score_deltas": delta,
        })  # fmt: skip
    play.sticks = 0
    return rows


def _hand_points(play: Play, win: dict[str, Any], h: dict[str, Any]) -> int:
    """The hand's value as the HuleInfo states it (0 when it does not): a ron's ``point_rong``, a tsumo's
    payments (``point_zimo_qin`` from the dealer, ``point_zimo_xian`` from every other payer). Not
    ``point_sum``: since 2021 it is the winner's running total of win points in the game."""
    if not win["is_tsumo"]:
        return int(h.get("point_rong") or 0)
    payers = [s for s in range(play.n_players) if s != win["seat"]]
    return sum(int(h.get("point_zimo_qin" if s == play.dealer else "point_zimo_xian") or 0) for s in payers)


def _win(play: Play, h: dict[str, Any], round_wind: int) -> dict[str, Any]:
    """A win's tiles and yaku (no money): winning tile, hand, melds, pao, fu, han."""
    seat = play.seat_of(h)
    is_tsumo = bool(h.get("zimo"))
    mine = play.seats[seat]
    if is_tsumo and (play.last_actor != seat or mine.last_draw < 0):
        raise ParseError(f"tsumo by seat {seat}, who did not draw last")
    tile = mine.last_draw if is_tsumo else play.last_given
    if tile < 0 or not play.ids.is_tile(tile, h.get("hu_tile")):
        raise ParseError(f"seat {seat} wins on {h.get('hu_tile')!r}, the records give another tile")
    hand = sorted(mine.held + ([] if is_tsumo else [tile]))
    if h.get("hand"):
        _check_tiles(play, [*h["hand"], h.get("hu_tile")], hand, f"the hand of seat {seat}")
    yaku, yaku_han = _yaku(h, (seat - play.dealer) % play.n_players, round_wind, seat in play.riichi_seats)
    fu = h.get("fu")
    return {
        "seat": seat, "from_seat": seat if is_tsumo else play.last_giver, "is_tsumo": is_tsumo,
        "pao_seat": _pao(play, seat, h), "tile": tile, "tile34": tile // 4, "is_red": _id_key(play, tile)[1],
        "hand": hand, "melds": [list(m) for m in reversed(mine.melds)], "n_kita": mine.n_kita,
        "fu": fu if isinstance(fu, int) and fu > 0 else None, "han": sum(yaku_han), "yaku": yaku,
        "yaku_names": [yaku_name(y) for y in yaku], "yaku_han": yaku_han, "is_yakuman": bool(h.get("yiman")),
    }  # fmt: skip


def _yaku(h: dict[str, Any], seat_wind: int, round_wind: int, in_riichi: bool) -> tuple[list[int], list[int]]:
    """Tenhou yaku ids and han of a HuleInfo's fans: yakuman 13 han per multiple, kita dora added into
    dora, 0-han entries dropped, ura dora (0 han) added to a riichi win that does not list it."""
    is_yakuman = bool(h.get("yiman"))
    merged: dict[int, int] = {}
    total = 0
    for fan in h.get("fans") or []:
        value = int(fan.get("val", 0))
        total += value
        yaku = yaku_of_fan(fan.get("id", 0), seat_wind, round_wind)
        merged[yaku] = merged.get(yaku, 0) + (13 * value if is_yakuman else value)
    if isinstance(h.get("count"), int) and h["count"] != total:
        raise ParseError(f"fans add up to {total}, the win says {h['count']}")
    ids = [y for y, han in merged.items() if han or y == URA_DORA]
    if (in_riichi or h.get("liqi")) and RIICHI_YAKU & set(ids) and URA_DORA not in ids:
        ids.append(URA_DORA)
    return ids, [merged.get(y, 0) for y in ids]


def _pao(play: Play, seat: int, h: dict[str, Any]) -> int | None:
    """The seat liable for a daisangen or daisuushii: the one that fed the completing pon or kan
    (``baopai_seats`` when the record names them)."""
    named = h.get("baopai_seats")
    if named:
        return int(named[0])
    fans = {fan.get("id") for fan in h.get("fans") or []}
    melds, froms = play.seats[seat].melds, play.meld_from[seat]
    for fan, kinds, needed in PAO_FANS:
        fed = [f for m, f in zip(melds, froms, strict=True) if m[0] // 4 in kinds]
        if fan in fans and len(fed) == needed and fed[-1] not in (-1, seat):
            return fed[-1]
    return None


def limit_name(han: int, fu: int | None, is_yakuman: bool) -> str:
    """Limit of a hand: yakuman (or 13+ han), sanbaiman 11+, baiman 8+, haneman 6+, mangan from 5 han or
    when fu x 2^(han+2) reaches 2000 (no kiriage), else ''."""
    if is_yakuman or han >= 13:
        return "yakuman"
    for least, name in ((11, "sanbaiman"), (8, "baiman"), (6, "haneman"), (5, "mangan")):
        if han >= least:
            return name
    return "mangan" if fu and fu << (han + 2) >= 2000 else ""


def _win_deltas(play: Play, record: Record, wins: list[dict], hules: list[dict], honba: int) -> list[list[int]]:
    """Score changes of each win (see the module docstring)."""
    n = play.n_players
    total = _padded(record.data.get("delta_scores"), n)
    after = _padded(record.data.get("scores"), n)
    if total is None and after is not None:
        total = [a - s for a, s in zip(after, play.scores, strict=True)]
    if len(wins) == 1 and total is not None:
        return [total]
    pairs = enumerate(zip(wins, hules, strict=True))
    split = [_formula(play, win, h, honba if i == 0 else 0, i == 0) for i, (win, h) in pairs]
    if total is not None and [sum(column) for column in zip(*split, strict=True)] != total:
        raise ParseError(f"the wins' points do not add up to the record's score changes {total}")
    return split


def _formula(play: Play, win: dict[str, Any], h: dict[str, Any], honba: int, first: bool) -> list[int]:
    """Score changes of one win from its points: a ron paid by the discarder (half by a liable seat),
    a tsumo by every other seat (the dealer point_zimo_qin, the others point_zimo_xian)."""
    seat, deltas = win["seat"], [0] * 4
    deltas[seat] += 1000 * play.sticks if first else 0
    if not win["is_tsumo"]:
        pay, source, liable = h.get("point_rong"), win["from_seat"], win["pao_seat"]
        if not pay:
            raise ParseError(f"a ron of seat {seat} among several wins without point_rong")
        extra = 100 * honba * (play.n_players - 1)
        half = pay // 2 if liable is not None and liable not in (seat, source) else 0
        deltas[source] -= pay - half + extra
        deltas[liable if half else source] -= half
        deltas[seat] += pay + extra
        return deltas
    for other in range(play.n_players):
        if other != seat:
            share = h.get("point_zimo_qin" if other == play.dealer else "point_zimo_xian") or 0
            deltas[other] -= share + 100 * honba
            deltas[seat] += share + 100 * honba
    return deltas


# --- draws -------------------------------------------------------------------------------------------
def _draw_row(play: Play, kind: str, honba: int, shown: list[bool], deltas: list[int]) -> dict[str, Any]:
    return {
        "kind": kind, "is_abortive": kind not in ("exhaustive", "nagashi_mangan"), "honba": honba,
        "riichi_sticks": play.sticks, "is_shown": shown, "n_shown": sum(shown),
        "hands_shown": [sorted(play.seats[s].held) if shown[s] else [] for s in range(4)],
        "scores_pre": _apply(play, deltas), "score_deltas": deltas,
    }  # fmt: skip


def notile_row(play: Play, record: Record, honba: int) -> dict[str, Any]:
    """The draws row of a RecordNoTile: exhaustive draw or nagashi mangan (``liujumanguan``)."""
    data, n = record.data, play.n_players
    entries = [e for e in data.get("scores") or [] if isinstance(e, dict)]
    if entries:
        _check_old_scores(play, entries[0].get("old_scores"))
    deltas = [0] * 4
    for entry in entries:
        deltas = [d + e for d, e in zip(deltas, _padded(entry.get("delta_scores"), n) or [0] * 4, strict=True)]
    kind = "nagashi_mangan" if data.get("liujumanguan") else "exhaustive"
    players = [p for p in data.get("players") or [] if isinstance(p, dict)]
    if len(players) == n:
        shown = [bool(p.get("tingpai")) for p in players] + [False] * (4 - n)
        for seat, player in enumerate(players):
            if shown[seat] and player.get("hand"):
                _check_tiles(play, player["hand"], play.seats[seat].held, f"the tenpai hand of seat {seat}")
    elif kind == "exhaustive" and any(deltas):
        shown = [d > 0 for d in deltas]  # noten payments go to the tenpai seats
    else:
        play.quirks.add("draw_tenpai_unrecorded")
        shown = [False] * 4
    return _draw_row(play, kind, honba, shown, deltas)


def liuju_row(play: Play, record: Record, honba: int) -> dict[str, Any]:
    """The draws row of a RecordLiuJu (abortive draw), checked against the events: suucha riichi needs
    four accepted riichi, suukaikan four kans by more than one seat."""
    kind = lookup(LIUJU_KINDS, record.data.get("type"), "abortive draw type", "RecordLiuJu")
    seated = [s < play.n_players for s in range(4)]
    if kind == "suucha_riichi" and play.n_accepted != 4:
        raise ParseError(f"suucha riichi with {play.n_accepted} riichi accepted")
    if kind == "suukaikan" and (len(play.kan_seats) < 4 or len(set(play.kan_seats)) < 2):
        raise ParseError(f"suukaikan after kans by seats {play.kan_seats}")
    if kind == "kyuushu_kyuuhai":
        shown = [s == play.seat_of(record.data) for s in range(4)]
    elif kind == "suucha_riichi":
        shown = seated
    elif kind == "sanchahou":
        shown = [seated[s] and s != play.last_giver for s in range(4)]
    else:
        shown = [False] * 4
    return _draw_row(play, kind, honba, shown, [0] * 4)
