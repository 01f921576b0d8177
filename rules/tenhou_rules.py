"""Tenhou's rules that changed over the years, as one table, and the rules each game was played under.

Every rule of Tenhou's that the logs show changing is one row of ``RULE_CHANGES``: its name, the first game
hour under the new value, the values before and after, and the real logs that show each side. Derivations
never hold such dates themselves: they ask ``rules_in_force`` for the values of their games.

A game's date is its start hour as its log id writes it (YYYYMMDDHH, Japan time). An undated game (a file named
without its log id) in the 2009 format (the wall seed inside INIT, no SHUFFLE element; the last such log seen
is dnovikoff's bug7.xml of 2009-07-16, the first in the later format its bug8.xml of 2009-08-29, dated by that
repository's README) is taken as played before every change below, any other undated game as after them
(an undated log of 2009-08 to 2010-05 is then misread: date such files by their log id).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
from numpy.typing import ArrayLike


@dataclass(frozen=True)
class RuleChange:
    """One change of one of Tenhou's rules."""

    rule: str
    """The rule's name: a key of rules_in_force's result."""
    since: datetime
    """The first start hour (log id, Japan time) of a game under the new value."""
    before: int
    """The value before ``since``."""
    after: int
    """The value from ``since`` on."""
    meaning: str
    """What the value says."""
    evidence: str
    """The real logs that show the value on each side of the date (and what bounds the date)."""


RULE_CHANGES: tuple[RuleChange, ...] = (
    RuleChange(
        rule="has_tenpai_yame",
        since=datetime(2010, 6, 1, 7),
        before=0,
        after=1,
        meaning="a tenpai dealer ranked first with the target score at the last regular round (or later) may end "
        "the game at an exhaustive draw (tenpai-yame), as after a dealer's win (agari-yame)",
        evidence="before: a Houou game started 2010-06-01 06:00 went on after a first-place dealer's tenpai in its "
        "last round; after: a Houou game of 2010-06-08 ended there (both reported in issue 17, not in "
        "../shared/logs), and so does every such round of 2010-08 to 2022 in ../shared/logs. The change lies "
        "between those two games; the first hour after the last game seen under the old rule is taken.",
    ),
    RuleChange(
        rule="tonpuu_extension_winds",
        since=datetime(2010, 6, 1, 7),
        before=2,
        after=1,
        meaning="how many winds an East-only (tonpuu) game may be extended by when nobody has the target score "
        "after East 4 (sudden death): 2 = South and West, 1 = South only",
        evidence="before: 2009030812gm-00e1-0000-270195f3 (Houou fast tonpuu) went from South 4, nobody at 30000, "
        "into West 1; after: 2017010103gm-00e1-0000-b5b4f454 ended at South 4 with nobody at 30000. No log of "
        "2009-03-09 to 2016 shows a tonpuu extension past South 4; the date is taken as the other 2010 change's "
        "until a log bounds it better.",
    ),
)
"""Every rule change of Tenhou's that the logs show, oldest first."""

HANCHAN_EXTENSION_WINDS = 1
"""A hanchan is extended by the West wind only (2017010100gm-00e9-0000-de8eee52 ended at West 4 with nobody at
30000); no log shows this differently in any year."""


def extension_winds(is_hanchan: ArrayLike, in_force: dict[str, np.ndarray]) -> np.ndarray:
    """(N,) int64: how many winds each game may be extended by (see RULE_CHANGES and HANCHAN_EXTENSION_WINDS),
    from ``is_hanchan`` (N,) bool and the games' rules_in_force."""
    return np.where(np.asarray(is_hanchan, dtype=bool), HANCHAN_EXTENSION_WINDS, in_force["tonpuu_extension_winds"])


def rotation_rules(started_at: ArrayLike, is_old_format: ArrayLike, is_hanchan: ArrayLike) -> dict[str, np.ndarray]:
    """The dated arguments of rules.rotation.next_round for each game (or round): ``has_tenpai_yame`` (bool) and
    ``extension_winds`` (int), from its start time, log format and length (see rules_in_force)."""
    in_force = rules_in_force(started_at, is_old_format)
    return {
        "has_tenpai_yame": in_force["has_tenpai_yame"].astype(bool),
        "extension_winds": extension_winds(is_hanchan, in_force),
    }


def rules_in_force(started_at: ArrayLike, is_old_format: ArrayLike) -> dict[str, np.ndarray]:
    """The value of every rule of RULE_CHANGES for each game (or round): {rule: (N,) int64}.

    Takes ``started_at`` (N,) start times (datetime64 or datetime; NaT/None for an undated game) and
    ``is_old_format`` (N,) bool (the log is in the 2009 format: see the module docstring)."""
    when = np.asarray(started_at, dtype="datetime64[h]")
    undated = np.isnat(when)
    old_format = np.asarray(is_old_format, dtype=bool)
    out = {}
    for change in RULE_CHANGES:
        after = np.where(undated, ~old_format, when >= np.datetime64(change.since, "h"))
        out[change.rule] = np.where(after, change.after, change.before).astype(np.int64)
    return out
