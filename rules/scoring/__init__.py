"""Scoring of winning hands, vectorised over many wins: decompositions, fu, yaku and han, points.

Tenhou's rules throughout (no double yakuman, several yakuman stack, kazoe yakuman at 13 han, no
kiriage mangan, double-wind pair 4 fu, open pinfu shape 30 fu). Yaku use Tenhou's ids (0-54,
``YAKU_NAMES`` in rules.scoring.yaku). The steps, each a module:

1. rules.scoring.decompose   every reading of each hand: its melds and pair, and where the winning
                             tile sits (the wait); seven pairs and thirteen orphans too
2. rules.scoring.fu          the fu components of every reading
3. rules.scoring.yaku        the han of every yaku of every reading (situational yaku from flags)
4. rules.scoring.score       the best reading of each win (points, then han, then fu)
5. rules.scoring.points      base points, limits, hand values and score changes

Inputs are plain arrays (rules.scoring.inputs); situational flags, called melds and pao come from
the event stream (rules.scoring.situation), dora from the indicators (rules.scoring.dora).

A ron a seat let go (the furiten pass check): ``has_yaku(ron_hands(counts, tile34, *melds_before(events,
rows, seats)), context)``, the context's flags from ``situations(..., win_row=rows)``.
"""

from rules.scoring.inputs import Context, Hands, hand_of, ron_hands
from rules.scoring.score import Scores, has_yaku, score_wins
from rules.scoring.situation import melds_before

__all__ = ["Context", "Hands", "Scores", "hand_of", "has_yaku", "melds_before", "ron_hands", "score_wins"]
