"""Whether an mjai game's last kyoku ends the game, and the final scores then.

mjai writers do not all close a game with ``end_game`` (a simulator's log, a stream cut right after the
last kyoku's result). Such a game is complete when its last kyoku ends it by Tenhou's rules of game end:
the same ``rules.rotation.game_ends`` the rules layer applies to every round (tobi; at or after the last
regular round, agari-yame / tenpai-yame of a first-place dealer, or the seat passing with somebody at the
target score or after the last extension wind), with the rules in force by the game's date
(``rules.tenhou_rules``: an undated game is taken as played under today's rules). The dealer's tenpai
at an exhaustive draw is the one the log shows (``tenpais`` or the noten payments); when the log shows
neither, the kyoku ends the game only when it does so tenpai or noten.

Final scores at such an end are the last kyoku's scores after its result with the riichi sticks left on
the table given to the first place (ties to the lower seat), as Tenhou's final scores show them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pipeline.errors import ParseError
from pipeline.sources.base import RoundOutcome, final_ranks
from pipeline.sources.mjai.header import Header
from pipeline.sources.mjai.replay import Replayed
from rules.payments import EXHAUSTIVE, NAGASHI_MANGAN
from rules.rotation import WIN, next_round
from rules.scoring.points import STICK
from rules.tenhou_rules import rotation_rules


def _outcome(outcome: RoundOutcome) -> str:
    """'win', or the kind of the kyoku's draw."""
    return WIN if outcome.wins else outcome.draws[0]["kind"]


def _ends(rnd: Replayed, outcome: RoundOutcome, header: Header, dealer_tenpai: bool) -> bool:
    """rules.rotation's verdict for one kyoku, given the dealer's tenpai."""
    winners = np.zeros((1, 4), dtype=bool)
    for win in outcome.wins:
        winners[0, win["seat"]] = True
    is_hanchan = np.array([header.is_hanchan])
    dated = rotation_rules(np.array([header.started_at], dtype="datetime64[h]"), np.array([False]), is_hanchan)
    nxt = next_round(
        round_wind=[rnd.round_wind], kyoku=[rnd.kyoku], dealer=[rnd.dealer], honba=[rnd.honba],
        riichi_sticks=[rnd.riichi_sticks], n_players=[header.n_players], is_hanchan=is_hanchan,
        outcome=[_outcome(outcome)], winners=winners, dealer_tenpai=[dealer_tenpai],
        n_riichi_accepted=[len(rnd.riichi_accepted)], scores_post=[outcome.scores_post],
        **dated,
    )  # fmt: skip
    return bool(nxt.game_ends[0])


def last_kyoku_ends_game(rnd: Replayed, outcome: RoundOutcome, header: Header) -> bool:
    """Whether the kyoku (a game's last one, with its result) ends the game by Tenhou's rules (see the module
    docstring). An unknown dealer tenpai at an exhaustive draw counts only when both answers end the game."""
    kind = _outcome(outcome)
    if kind not in (EXHAUSTIVE, NAGASHI_MANGAN):
        return _ends(rnd, outcome, header, dealer_tenpai=False)
    if "draw_tenpai_unrecorded" in outcome.quirks:
        return _ends(rnd, outcome, header, dealer_tenpai=True) and _ends(rnd, outcome, header, dealer_tenpai=False)
    return _ends(rnd, outcome, header, dealer_tenpai=bool(outcome.draws[0]["is_shown"][rnd.dealer]))


def sticks_left(outcome: RoundOutcome) -> int:
    """Riichi sticks on the table after the kyoku: none after a win, the draw's after a draw."""
    return 0 if outcome.wins else int(outcome.draws[-1]["riichi_sticks"])


def final_scores(scores_post: list[int], n_players: int, sticks: int) -> list[int]:
    """The game's final scores (four seats, padded): ``scores_post`` with ``sticks`` riichi sticks given to the
    first place (ties to the lower seat)."""
    final = list(scores_post)
    if sticks:
        first = final_ranks(final[:n_players]).index(1)
        final[first] += STICK * sticks
    return final


def end_scores(end_game: dict[str, Any] | None, n_players: int) -> list[int] | None:
    """end_game's final scores padded to four seats, None when it has none; raises ParseError for scores that are
    not numbers."""
    scores = end_game.get("scores") if end_game else None
    if not isinstance(scores, list) or len(scores) < n_players:
        return None
    if not all(isinstance(s, int | float) for s in scores):
        raise ParseError(f"end_game scores {scores!r} are not numbers")
    return ([int(s) for s in scores[:n_players]] + [0] * 4)[:4]
