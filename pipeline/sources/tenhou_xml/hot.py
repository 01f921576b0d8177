"""The events of the draws, discards and hot elements (calls, riichi, dora indicators) of a whole document at
once, by the compiled kernel (kernel.hot_events).

The kernel checks each hot element against the state it meets (a round open, the seats of the table, a call
code decode_meld accepts) and turns those that pass into event rows. One that does not pass is handed to its
per-tag handler in document order instead, which raises the same error the element-by-element reading raises.

The state an element meets is known before the document is read: a round is open once an INIT came (an INIT
that fails stops the reading), the round is the number of INITs before it minus one, and the number of seats is
the last GO's before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from pipeline.sources.tenhou_xml.elements import Elements
from pipeline.sources.tenhou_xml.kernel import HOT_NAMES, N_HOT, REACH_HOT, hot_events
from rules.hands import CODE

_ATTR = re.compile(r"([\w.-]+)\s*=\s*\"([^\"]*)\"")
_CODES = np.array([CODE[a] for a in ("draw", "discard", "chi", "pon", "daiminkan", "kakan", "ankan", "kita",
                                     "riichi", "riichi_accepted", "dora")], dtype=np.int64)  # fmt: skip
"""The action codes of kernel.hot_events' slots."""


@dataclass
class BulkRows:
    """Event rows of the draws, discards and hot elements that passed, in document order (-1 for none)."""

    source_index: np.ndarray
    round_idx: np.ndarray
    seat: np.ndarray
    action: np.ndarray
    tile: np.ndarray
    from_seat: np.ndarray
    meld: np.ndarray
    """The called tiles, four slots per row, of which meld_size are used."""
    meld_size: np.ndarray


def players_of_go(attr_text: str) -> int:
    """The number of seats a GO element's type gives (0 when it cannot be read: the GO handler then raises)."""
    try:
        return 3 if int(dict(_ATTR.findall(attr_text))["type"]) & 0x10 else 4
    except (KeyError, ValueError):
        return 0


def bulk_rows(elements: Elements, go: list[tuple[int, int]]) -> tuple[BulkRows, list[tuple[int, str, str]]]:
    """(the rows of the draws, discards and hot elements that pass, the hot ones refused as (index, name,
    attribute text) for their handlers). ``go`` holds (element index, players_of_go) of every GO element."""
    go_index = np.array([i for i, _ in go], dtype=np.int64)
    go_players = np.array([n for _, n in go], dtype=np.int64)
    *columns, refused = hot_events(elements.kinds, elements.a, elements.b, go_index, go_players, _CODES)
    kinds, a, b = elements.kinds, elements.a, elements.b
    handed = [(i, HOT_NAMES[int(kinds[i])], _as_written(int(kinds[i]), int(a[i]), int(b[i]))) for i in refused.tolist()]
    return BulkRows(*columns), handed


def _as_written(kind: int, a: int, b: int) -> str:
    """The attribute text of a hot element, as the server writes it (what the kernel accepted)."""
    if kind == N_HOT:
        return f' who="{a}" m="{b}"/'
    if kind == REACH_HOT:
        return f' who="{a}" step="{b}"/'
    return f' hai="{a}"/'
