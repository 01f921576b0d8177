"""A replayed kyoku's results as wins and draws rows.

Score changes: a result's ``deltas`` when every result of the kyoku has them; else the differences of
its ``scores`` (after the result); else the kyoku's total change up to the next kyoku's starting scores
(or end_game's), split on a multiple ron by winner (each winner's gain, paid by the discarder), quirk
``deltas_from_next_round``; else none known: zeros, quirk ``deltas_unrecorded``. Scores before a result
are the kyoku's starting scores less the riichi sticks put down in it, as Tenhou's ``sc`` shows them.
"""

from __future__ import annotations

from typing import Any

from pipeline.errors import ParseError, UnknownCodeError
from pipeline.sources.base import RoundOutcome
from pipeline.sources.mjai.codes import draw_kind
from pipeline.sources.mjai.events import ACTION, SEAT, TILE
from pipeline.sources.mjai.labels import limit_name, read_labels
from pipeline.sources.mjai.replay import Replayed, Result
from pipeline.sources.mjai.tiles import RED_IDS
from rules.hands import ACTIONS
from rules.scoring.points import HONBA_EACH, STICK
from rules.scoring.situation import LIVE_DRAWS
from rules.scoring.yaku import YAKU_NAMES

NOTEN_MAX_GAIN = 3000
"""The most a seat gains from noten payments; an exhaustive draw paying more is a nagashi mangan."""


_INT = {int}


def per_seat(value: Any, what: str, n_players: int) -> list[int]:
    """A per-seat list of numbers padded to four seats; raises ParseError when it is not one."""
    if type(value) is list and len(value) >= n_players and set(map(type, value)) == _INT:  # plain ints at C speed
        return (value[:n_players] + [0, 0, 0, 0])[:4]
    if not isinstance(value, list) or len(value) < n_players or not all(isinstance(v, int | float) for v in value):
        raise ParseError(f"malformed {what} {value!r}")
    return ([int(v) for v in value[:n_players]] + [0] * 4)[:4]


class OutcomeBuilder:
    """Builds the rows of one replayed kyoku (``after``: the scores the next kyoku or end_game shows)."""

    def __init__(self, rnd: Replayed, n_players: int, has_red_fives: bool, after: list[int] | None) -> None:
        self.rnd = rnd
        self.n = n_players
        self.red = has_red_fives
        self.after = after
        self.scores = list(rnd.scores)
        for seat in rnd.riichi_accepted:
            self.scores[seat] -= STICK
        self.sticks = rnd.riichi_sticks + len(rnd.riichi_accepted)
        self.quirks: set[str] = set()

    def build(self) -> RoundOutcome:
        """Return the kyoku's rows; raises ParseError / UnknownCodeError on a result that cannot be read."""
        results = self.rnd.results
        deltas = self._deltas(results)
        out = RoundOutcome()
        rons = [r for r in results if r.event["type"] == "hora"]
        for result, change in zip(results, deltas, strict=True):
            if result.event["type"] == "hora":
                out.wins.append(self._win(len(out.wins), result, change, self._takes_bonus(result, rons)))
            else:
                out.draws.append(self._draw(result, change))
        if out.wins and out.draws:
            raise ParseError("a kyoku with both hora and ryukyoku")
        out.scores_post = list(self.scores)
        if self.after is not None and self.after != self.scores:
            self.quirks.add("score_mismatch")
        out.quirks = self.quirks
        return out

    # --- score changes -------------------------------------------------------------------------
    def _deltas(self, results: list[Result]) -> list[list[int]]:
        if all("deltas" in r.event for r in results):
            return [per_seat(r.event["deltas"], "deltas", self.n) for r in results]
        if all("scores" in r.event for r in results):
            out, before = [], list(self.scores)
            for r in results:
                scores = per_seat(r.event["scores"], "scores", self.n)
                out.append([a - b for a, b in zip(scores, before, strict=True)])
                before = scores
            return out
        if self.after is None:
            self.quirks.add("deltas_unrecorded")
            return [[0] * 4 for _ in results]
        self.quirks.add("deltas_from_next_round")
        total = [a - b for a, b in zip(self.after, self.scores, strict=True)]
        if len(results) == 1:
            return [total]
        return [self._ron_share(r, total) for r in results]

    def _ron_share(self, result: Result, total: list[int]) -> list[int]:
        """One winner's part of a multiple ron's total change: its gain, paid by the discarder."""
        seat, target = result.event.get("actor"), result.event.get("target")
        if result.event["type"] != "hora" or seat == target:
            raise ParseError("several results in a kyoku without score changes that are not a multiple ron")
        share = [0] * 4
        share[seat], share[target] = total[seat], -total[seat]
        return share

    def _apply(self, deltas: list[int]) -> list[int]:
        """Apply a result's score changes; return the scores before them."""
        before = list(self.scores)
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        return before

    # --- wins ----------------------------------------------------------------------------------
    def _takes_bonus(self, result: Result, rons: list[Result]) -> bool:
        """The win nearest the discarder in turn order takes the honba and the sticks."""
        target = result.event["target"]
        distance = [(r.event["actor"] - target) % self.n for r in rons]
        return (result.event["actor"] - target) % self.n == min(distance)

    def _win(self, win_idx: int, result: Result, deltas: list[int], bonus: bool) -> dict[str, Any]:
        rnd, event = self.rnd, result.event
        seat, from_seat = event["actor"], event["target"]
        is_tsumo = seat == from_seat
        melds = [list(m) for m in reversed(rnd.melds[seat])]  # newest first, as the XML lists them
        # the winner's tile kinds: read_labels looks at them for yaku entries only (most converted logs write none)
        kinds = [t // 4 for t in result.hand] + [t // 4 for m in melds for t in m] if (
            "yakus" in event or "yaku" in event) else []  # fmt: skip
        labels = read_labels(event, seat_wind=(seat - rnd.dealer) % self.n, round_wind=rnd.round_wind, kinds=kinds)
        self.quirks |= labels.quirks
        sticks = self.sticks if bonus else 0
        points = hora_points(event, deltas[seat], rnd.honba if bonus else 0, sticks, self.n)
        is_riichi = seat in rnd.riichi_accepted
        return {
            "win_idx": win_idx, "seat": seat, "from_seat": from_seat, "is_tsumo": is_tsumo,
            "pao_seat": liable_seat(deltas, seat, from_seat, is_tsumo, self.n), "tile": result.tile,
            "tile34": result.tile // 4, "is_red": self.red and result.tile in RED_IDS, "hand": result.hand,
            "melds": melds, "n_kita": rnd.n_kita[seat], "fu": labels.fu, "han": labels.han, "points": points,
            "limit_name": limit_name(points, is_yakuman=labels.is_yakuman, han=labels.han,
                                     is_dealer=seat == rnd.dealer, is_tsumo=is_tsumo, n_players=self.n),
            "yaku": labels.yaku, "yaku_names": [YAKU_NAMES[y] for y in labels.yaku], "yaku_han": labels.yaku_han,
            "is_yakuman": labels.is_yakuman, "dora_indicators": list(rnd.dora),
            "ura_indicators": list(rnd.ura) if is_riichi else [], "honba": rnd.honba, "riichi_sticks": sticks,
            "scores_pre": self._apply(deltas), "score_deltas": deltas,
        }  # fmt: skip

    # --- draws ---------------------------------------------------------------------------------
    def _draw(self, result: Result, deltas: list[int]) -> dict[str, Any]:
        kind = self._kind(result, deltas)
        shown = shown_seats(result.event, kind, deltas, self.n, result.last_actor, self.quirks)
        hands = [(result.shown[s] or []) if shown[s] else [] for s in range(4)]
        return {
            "kind": kind, "is_abortive": kind not in ("exhaustive", "nagashi_mangan"), "honba": self.rnd.honba,
            "riichi_sticks": self.sticks, "is_shown": shown, "n_shown": sum(shown), "hands_shown": hands,
            "scores_pre": self._apply(deltas), "score_deltas": deltas,
        }  # fmt: skip

    def _kind(self, result: Result, deltas: list[int]) -> str:
        """The draw kind: from ``reason``; without one, an exhaustive draw when the live wall ran out (a
        nagashi mangan when a seat gains more than noten payments give), else the abort the events show."""
        reason = result.event.get("reason")
        if reason is not None:
            return draw_kind(reason)
        if self.rnd.n_draws >= LIVE_DRAWS[self.n]:
            return wall_out_kind(deltas, self.quirks)
        self.quirks.add("draw_reason_inferred")
        return self._abort_kind()

    def _abort_kind(self) -> str:
        events = [e for e in self.rnd.rows() if e[SEAT] >= 0]
        actions = [ACTIONS[e[ACTION]] for e in events]
        discards = [e[TILE] // 4 for e, a in zip(events, actions, strict=True) if a == "discard"]
        discarders = {e[SEAT] for e, a in zip(events, actions, strict=True) if a == "discard"}
        if actions and actions[-1] == "draw" and events[-1][SEAT] not in discarders:
            return "kyuushu_kyuuhai"
        if actions and actions[-1] == "riichi_accepted" and len(set(self.rnd.riichi_accepted)) == 4:
            return "suucha_riichi"
        if len(discards) == 4 and len(set(discards)) == 1 and 27 <= discards[0] <= 30 and len(actions) == 8:
            return "suufon_renda"
        if sum(a in ("daiminkan", "kakan", "ankan") for a in actions) >= 4:
            return "suukaikan"
        raise UnknownCodeError("ryukyoku without a reason before the wall ran out, and no abort the events show")


def hora_points(event: dict[str, Any], gain: int, honba: int, sticks: int, n_players: int) -> int:
    """A win's ``points``: the hora's ``hora_points`` when it writes them, else the hand's value from the winner's
    gain, less the sticks and the honba it took (``honba``, ``sticks``: 0 for a win that takes no bonus); 0 when the
    gain is not known (0)."""
    points = event.get("hora_points")
    if isinstance(points, int) and not isinstance(points, bool):
        return points
    if gain == 0:
        return 0
    return gain - STICK * sticks - HONBA_EACH * (n_players - 1) * honba  # honba_ron in plain ints, as the column


def liable_seat(deltas: list[int], seat: int, from_seat: int, is_tsumo: bool, n_players: int) -> int | None:
    """The liable seat (pao) the score changes show: the only payer of a tsumo, or a payer of a ron besides the
    discarder; None otherwise."""
    payers = [s for s in range(n_players) if s != seat and deltas[s] < 0]
    if is_tsumo:
        return payers[0] if len(payers) == 1 and n_players > 2 else None
    others = [s for s in payers if s != from_seat]
    return others[0] if len(others) == 1 else None


def wall_out_kind(deltas: list[int], quirks: set[str]) -> str:
    """The kind of a ryukyoku without a reason once the live wall ran out: a nagashi mangan when a seat gains more
    than noten payments give (quirk ``draw_reason_inferred``), else an exhaustive draw."""
    if max(deltas) > NOTEN_MAX_GAIN:
        quirks.add("draw_reason_inferred")
        return "nagashi_mangan"
    return "exhaustive"


def shown_seats(event: dict[str, Any], kind: str, deltas: list[int], n_players: int, last_actor: int,
                quirks: set[str]) -> list[bool]:  # fmt: skip
    """Seats whose hand a ryukyoku shows, as Tenhou shows them: the tenpai seats at an exhaustive draw or nagashi
    mangan (``tenpais``, else the seats noten payments pay; quirk ``draw_tenpai_unrecorded`` when neither tells),
    the declarer of kyuushu kyuuhai (``actor``, else the last seat to act), every hand at suucha riichi, the three
    winners at sanchahou, none at suufon renda and suukaikan."""
    seated = [s < n_players for s in range(4)]
    if kind == "kyuushu_kyuuhai":
        declarer = event.get("actor", last_actor)
        return [s == declarer for s in range(4)]
    if kind == "suucha_riichi":
        return seated
    if kind == "sanchahou":
        return [seated[s] and s != last_actor for s in range(4)]
    if kind not in ("exhaustive", "nagashi_mangan"):
        return [False] * 4
    tenpais = event.get("tenpais")
    if isinstance(tenpais, list) and len(tenpais) >= n_players and all(isinstance(t, bool) for t in tenpais):
        return [seated[s] and tenpais[s] for s in range(4)]
    if kind == "nagashi_mangan" or not any(deltas):
        quirks.add("draw_tenpai_unrecorded")
        return [False] * 4
    return [seated[s] and deltas[s] > 0 for s in range(4)]
