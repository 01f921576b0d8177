"""The errors paipu raises: one base class, a few kinds below it.

Every error carries where it happened (file, game, round, tag) so a quarantined file can be
explained without a traceback.
"""

from __future__ import annotations


class PaipuError(Exception):
    """Base class of every error paipu raises on purpose."""


class ParseError(PaipuError):
    """A log could not be read: malformed, truncated beyond use, or inconsistent.

    Takes the message and, where known, the game id, the round index and the tag being read;
    ``str()`` joins them into one line.
    """

    def __init__(
        self,
        message: str,
        *,
        game_id: str | None = None,
        round_idx: int | None = None,
        tag: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.game_id = game_id
        self.round_idx = round_idx
        self.tag = tag

    def __str__(self) -> str:
        where = []
        if self.game_id:
            where.append(f"game {self.game_id}")
        if self.round_idx is not None:
            where.append(f"round {self.round_idx}")
        if self.tag:
            where.append(f"tag <{self.tag}>")
        return f"{self.message} ({', '.join(where)})" if where else self.message


class UnknownCodeError(ParseError):
    """A code of the format's vocabulary that paipu does not know (a RYUUKYOKU type, a yaku id...)."""


class NotALogError(ParseError):
    """The bytes are not a game log of any format paipu reads."""


class SchemaError(PaipuError):
    """A table does not match its declared schema, or a warehouse was written by an incompatible version."""


class WarehouseError(PaipuError):
    """The warehouse cannot be read or written (missing, permission denied, disk full...)."""
