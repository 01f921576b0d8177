"""``GameBuilder``: a whole Tenhou game (mjlog XML) built round by round, for tests and samples.

    g = GameBuilder(players=4, rule_type=169, names=("A", "B", "C", "D"))
    r = g.round(hands={0: "123m456p789s1122z", ...}, dora_indicator="5z")
    r.draw(0, "3z"); r.discard(0, "1z"); ...; r.ron(1, 0)
    xml_text = g.to_xml()

Scores, honba, riichi sticks and the dealer carry over from round to round by Tenhou's rules, so the next
``g.round(...)`` needs only the hands; ``owari`` goes on the last result.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from urllib.parse import quote

from pipeline.scenario.round import RoundBuilder
from pipeline.scenario.scoring import final_points
from pipeline.scenario.state import Tag
from pipeline.scenario.tiles import ScenarioError, TileLike, TilesLike

SPACED_TAGS = frozenset({"N", "AGARI", "RYUUKYOKU", "DORA", "BYE"})
"""Tags Tenhou closes with ``" />"`` (the others with ``"/>"``)."""


@dataclass(frozen=True)
class RoundStart:
    """Where a round starts: kyoku (wind * 4 + dealer), honba, riichi sticks on the table, scores."""

    kyoku: int
    honba: int
    sticks: int
    scores: tuple[int, ...]


def render_tag(name: str, attrs: Mapping[str, str]) -> str:
    """One element as Tenhou writes it (``<T12/>``, ``<N who="1" m="19887" />``)."""
    if not attrs:
        return f"<{name}/>"
    body = " ".join(f'{k}="{v}"' for k, v in attrs.items())
    return f"<{name} {body}{' ' if name in SPACED_TAGS else ''}/>"


class GameBuilder:
    """A Tenhou game under construction: header, rounds, and the rules the score carry-over follows."""

    def __init__(
        self,
        players: int = 4,
        rule_type: int | None = None,
        names: Sequence[str] | None = None,
        *,
        seed: int = 0,
        dan: Sequence[int] | None = None,
        rate: Sequence[float] | None = None,
        sx: Sequence[str] | None = None,
        lobby: int = 0,
        strict: bool = True,
        start_score: int | None = None,
    ) -> None:
        """``rule_type``: the GO type (default 169, or 185 for 3 players); ``seed`` fixes dice and filler."""
        if players not in (3, 4):
            raise ScenarioError("players must be 3 or 4")
        self.players = players
        self.rule_type = rule_type if rule_type is not None else (169 if players == 4 else 185)
        if bool(self.rule_type & 0x10) != (players == 3):
            raise ScenarioError(f"GO type {self.rule_type} (bit 0x10 = sanma) does not fit {players} players")
        self.names = list(names) if names is not None else [f"player{i + 1}" for i in range(players)]
        if len(self.names) != players:
            raise ScenarioError(f"need {players} names, got {len(self.names)}")
        self.dan = list(dan) if dan is not None else [16] * players
        self.rate = list(rate) if rate is not None else [2000.0] * players
        self.sx = list(sx) if sx is not None else ["M"] * players
        self.lobby, self.strict, self.seed = lobby, strict, seed
        self.start_score = start_score or (25000 if players == 4 else 35000)
        self.rng = random.Random(seed)
        self.rounds: list[RoundBuilder] = []

    @property
    def sanma(self) -> bool:
        """Three-player game (GO bit 0x10)."""
        return bool(self.rule_type & 0x10)

    @property
    def red(self) -> bool:
        """Red fives in play (GO bit 0x02 not set)."""
        return not self.rule_type & 0x02

    @property
    def hanchan(self) -> bool:
        """East and South rounds (GO bit 0x08); else East only (tonpuu)."""
        return bool(self.rule_type & 0x08)

    @property
    def target(self) -> int:
        """Score that ends the game after the last scheduled round (the return: 30000, sanma 40000)."""
        return 30000 if self.players == 4 else 40000

    def round(
        self,
        hands: Mapping[int, TilesLike] | None = None,
        *,
        dora_indicator: TileLike | None = None,
        kyoku: int | None = None,
        dealer: int | None = None,
        honba: int | None = None,
        sticks: int | None = None,
        scores: Sequence[int] | None = None,
        wall: TilesLike | None = None,
        dice: tuple[int, int] | None = None,
        ura_indicators: TilesLike | None = None,
    ) -> RoundBuilder:
        """Start the next round; unset values follow on from the previous round by Tenhou's rules.

        Seats missing from ``hands`` get 13 free tiles; ``wall`` lists the tiles drawn in order.
        Scores and sticks must match the carry-over after the first round (full points).
        """
        if self.rounds and not self.rounds[-1].over:
            raise ScenarioError("the previous round has no result yet")
        start = self.next_round() or self._after_end()
        self._check_carry_over(start, scores, sticks)
        k = kyoku if kyoku is not None else start.kyoku
        if dealer is not None:
            k = k // 4 * 4 + dealer
        r = RoundBuilder(
            self,
            kyoku=k,
            honba=start.honba if honba is None else honba,
            sticks=start.sticks if sticks is None else sticks,
            scores=start.scores if scores is None else scores,
            hands=hands or {},
            dora_indicator=dora_indicator,
            wall=wall,
            dice=dice,
            ura_indicators=ura_indicators,
            rng=random.Random(self.rng.random()),
        )
        self.rounds.append(r)
        return r

    def _check_carry_over(self, start: RoundStart, scores: Sequence[int] | None, sticks: int | None) -> None:
        if not self.rounds:
            return
        if scores is not None and tuple(scores)[: self.players] != start.scores[: self.players]:
            raise ScenarioError(f"scores {tuple(scores)} do not follow on from the last round: {start.scores}")
        if sticks is not None and sticks != start.sticks:
            raise ScenarioError(f"{start.sticks} riichi sticks are on the table, not {sticks}")

    def next_round(self) -> RoundStart | None:
        """Where the next round starts after the last result; None when the game is over."""
        full = tuple([self.start_score] * self.players + [0] * (4 - self.players))
        if not self.rounds:
            return RoundStart(0, 0, 0, full)
        last = self.rounds[-1]
        if not last.over:
            return None
        won = last.result_kind == "agari"
        renchan = (last.dealer in last.winners) if won else (last.dealer_tenpai or last.result_kind == "abort")
        honba = last.honba + 1 if renchan or not won else 0
        kyoku = last.kyoku if renchan else self._next_kyoku(last.kyoku)
        if self._game_ends(last, renchan, kyoku):
            return None
        return RoundStart(kyoku, honba, last.sticks, tuple(last.scores))

    @property
    def is_over(self) -> bool:
        """Whether Tenhou would end the game after the last result."""
        return bool(self.rounds) and self.rounds[-1].over and self.next_round() is None

    def _next_kyoku(self, kyoku: int) -> int:
        dealer = kyoku % 4 + 1
        return kyoku // 4 * 4 + dealer if dealer < self.players else (kyoku // 4 + 1) * 4

    def _game_ends(self, last: RoundBuilder, renchan: bool, next_kyoku: int) -> bool:
        """Tenhou's end: a score below 0; after the all-last once someone has the target score (the
        all-last dealer's renchan ends only by winning into first place); extra rounds are sudden death
        and stop after one more wind."""
        scores = last.scores[: self.players]
        if min(scores) < 0:
            return True
        last_wind, wind = (1 if self.hanchan else 0), last.kyoku // 4
        if wind < last_wind or (wind == last_wind and last.dealer < self.players - 1):
            return False
        top = max(range(self.players), key=lambda s: (scores[s], -s))
        reached = scores[top] >= self.target
        if wind > last_wind and reached:
            return True
        if renchan:
            return last.result_kind == "agari" and top == last.dealer and reached
        return reached or next_kyoku // 4 > last_wind + 1

    def _after_end(self) -> RoundStart:
        """Carry-over when a round is started although Tenhou would have ended the game."""
        last = self.rounds[-1]
        return RoundStart(self._next_kyoku(last.kyoku), 0, last.sticks, tuple(last.scores))

    def header(self) -> list[Tag]:
        """SHUFFLE, GO, UN and TAIKYOKU elements."""
        pad = 4 - self.players
        un = {f"n{i}": quote(n, safe="") for i, n in enumerate([*self.names, *[""] * pad])}
        un["dan"] = ",".join(map(str, [*self.dan, *[0] * pad]))
        un["rate"] = ",".join(f"{r:.2f}" for r in [*self.rate, *[1500.0] * pad])
        un["sx"] = ",".join([*self.sx, *["C"] * pad])
        return [
            ("SHUFFLE", {"seed": f"paipu-scenario,{self.seed}", "ref": ""}),
            ("GO", {"type": str(self.rule_type), "lobby": str(self.lobby)}),
            ("UN", un),
            ("TAIKYOKU", {"oya": "0"}),
        ]

    def owari(self) -> str:
        """The ``owari`` value: final scores (hundreds, sticks to first place) and points per seat."""
        last = self.rounds[-1]
        return ",".join(f"{s},{p:.1f}" for s, p in final_points(last.scores[: self.players], last.sticks, self.players))

    def to_xml(self, owari: bool = True) -> str:
        """The whole ``<mjloggm ver="2.3">`` document; ``owari`` on the last result unless disabled."""
        events = [tag for r in self.rounds for tag in r.events]
        if owari and self.rounds and self.rounds[-1].over:
            i = max(i for i, (name, _) in enumerate(events) if name in ("AGARI", "RYUUKYOKU"))
            events[i] = (events[i][0], {**events[i][1], "owari": self.owari()})
        body = "".join(render_tag(n, a) for n, a in [*self.header(), *events])
        return f'<mjloggm ver="2.3">{body}</mjloggm>'


def one_round(
    hands: Mapping[int, TilesLike] | None = None,
    *,
    players: int = 4,
    rule_type: int | None = None,
    strict: bool = True,
    seed: int = 0,
    **round_kw: object,
) -> tuple[GameBuilder, RoundBuilder]:
    """A new game with its first round started: ``g, r = one_round({0: "123m..."}, dora_indicator="1z")``."""
    game = GameBuilder(players, rule_type, strict=strict, seed=seed)
    return game, game.round(hands, **round_kw)  # type: ignore[arg-type]
