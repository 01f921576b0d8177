"""The events table of one game, as column arrays, from its replayed rounds.

Columns follow the XML parser's conventions (pipeline.columns): numpy integer arrays with -1 for
null, booleans as 1/0/-1, the action as a ``Coded`` column of the rules layer's vocabulary, meld
tiles as an object array (a list per call, None elsewhere). Tsumogiri and rinshan are derived as the
XML parser derives them: a discard of the very id the seat drew just before; a draw right after the
seat's own kan or kita.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pipeline.columns import Coded
from pipeline.sources.tenhou_json.tiles import IdEvent
from rules.hands import ACTIONS, CODE

_HAND_ACTIONS = frozenset(ACTIONS[:8])
_RINSHAN_AFTER = frozenset({"daiminkan", "kakan", "ankan", "kita"})
_RED_IDS = frozenset({16, 52, 88})


@dataclass
class EventColumns:
    """Per-column lists of a game's events, appended round by round, turned into arrays once."""

    has_red_fives: bool
    lists: dict[str, list] = field(
        default_factory=lambda: {
            name: []
            for name in (
                "round_idx",
                "event_idx",
                "seat",
                "action",
                "tile",
                "is_red",
                "from_seat",
                "is_tsumogiri",
                "is_rinshan",
                "meld_tiles",
                "source_index",
            )
        }  # fmt: skip
    )

    def add_round(self, round_idx: int, events: list[tuple[int, IdEvent]]) -> None:
        """Append one round's events, each with its source index, in order."""
        last_hand: dict[int, IdEvent] = {}
        for event_idx, (source_index, event) in enumerate(events):
            previous = last_hand.get(event.seat)
            after_draw = previous is not None and previous.action == "draw"
            after_kan = previous is not None and previous.action in _RINSHAN_AFTER
            row = (
                round_idx, event_idx, event.seat, CODE[event.action], event.tile,
                -1 if event.tile < 0 else int(self.has_red_fives and event.tile in _RED_IDS), event.from_seat,
                int(after_draw and previous.tile == event.tile) if event.action == "discard" else -1,
                int(after_kan) if event.action == "draw" else -1, event.meld, source_index,
            )  # fmt: skip
            for values, value in zip(self.lists.values(), row, strict=True):
                values.append(value)
            if event.action in _HAND_ACTIONS:
                last_hand[event.seat] = event

    def columns(self) -> dict[str, np.ndarray | Coded]:
        """The events table's columns (game_id excluded)."""
        out: dict[str, np.ndarray | Coded] = {}
        for name, values in self.lists.items():
            if name == "meld_tiles":
                melds = np.empty(len(values), dtype=object)
                melds[:] = values
                out[name] = melds
            elif name == "action":
                out[name] = Coded(np.asarray(values, dtype=np.int64), ACTIONS)
            else:
                out[name] = np.asarray(values, dtype=np.int64)
        tile = out["tile"]
        assert isinstance(tile, np.ndarray)
        out["tile34"] = np.where(tile >= 0, tile >> 2, -1)
        return {name: out[name] for name in _ORDER}

    def per_round(self, n_rounds: int) -> list[int]:
        """Events of each round."""
        return np.bincount(np.asarray(self.lists["round_idx"], dtype=np.int64), minlength=n_rounds).tolist()


_ORDER = ("round_idx", "event_idx", "seat", "action", "tile", "tile34", "is_red", "from_seat", "is_tsumogiri",
          "is_rinshan", "meld_tiles", "source_index")  # fmt: skip
