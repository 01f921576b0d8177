"""A file's manifest status, decided in one place: the ingest as a state machine.

Every stage of the ingest (discovery, reading, the invariant checks, deduplication, a later batch's restating)
reports what it found as a reason code, never a status: ``decide`` turns the code into the status, and checks
that the file may go there from where it is. The states and what leads to them:

    (read) --ok--> ok                          every game stored, or read again unchanged
    (read) --not_read--> skipped               discovery: a FIFO, a dangling link, a link out of the inputs...
    (read) --not_downloaded--> pending         a database row without its log (read again by the next run)
    (read) --unreadable|too_large|malformed|unknown_code|reader_error--> quarantined      reading
    (read) --unknown_format|not_a_log--> not_a_log                                        reading
    ok --unstorable|invariant_check--> quarantined                                        the batch's checks
    ok --copy_of_stored|partial_copy--> duplicate                                         deduplication
    ok --round_disagrees|game_id_taken--> conflict                                        deduplication
    ok --no_complete_round--> quarantined                                                 deduplication
    duplicate --copy_of_stored|partial_copy|round_disagrees--> duplicate or conflict      a later copy is stored
    conflict --round_disagrees--> conflict                                                a later copy is stored
    quarantined (no_complete_round) --partial_copy--> duplicate                           a later copy is stored

A later batch restates only rows whose game it stores a better copy of (see RESTATABLE); every other status is
final for the file's content. A transition not in the table is an internal error, never a silent change.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.errors import WarehouseError

STATUSES = ("ok", "duplicate", "conflict", "quarantined", "not_a_log", "skipped", "pending")
"""Manifest statuses of a file: ``skipped`` is an input not read by design (a FIFO, a dangling link, a link
out of the inputs, a folder that cannot be listed), ``pending`` a database row whose log is not downloaded yet
(read again by the next run)."""

REASONS: dict[str, tuple[str, ...]] = {
    "ok": (),
    "duplicate": ("copy_of_stored", "partial_copy"),
    "conflict": ("round_disagrees", "game_id_taken"),
    "quarantined": (
        "unreadable", "too_large", "malformed", "unknown_code", "reader_error", "unstorable", "invariant_check",
        "no_complete_round",
    ),
    "not_a_log": ("unknown_format", "not_a_log"),
    "skipped": ("not_read",),
    "pending": ("not_downloaded",),
}  # fmt: skip
"""The manifest's reason codes of each status (``manifest.reason``; null for ok), the message (``error``) saying
the rest: duplicate a copy of a stored game, or a partial one (no complete round); conflict a copy disagreeing
with the stored one on a round, or another game under a stored game's id; quarantined a file or member that
cannot be read (I/O, a damaged container, a bound of pipeline.limits: too_large), a log its parser rejects
(malformed; unknown_code: a code of the format's vocabulary paipu does not know), a reader's unexpected failure,
a value that does not fit its column, a game failing an invariant check, or no complete round; not_a_log: no
known format, or the parser says it is none; skipped and pending as above."""

STATUS_OF: dict[str, str] = {reason: status for status, reasons in REASONS.items() for reason in reasons}
"""Reason code -> the status it gives."""

_FROM_READ = frozenset(("not_read", "not_downloaded", "unreadable", "too_large", "malformed", "unknown_code",
                        "reader_error", "unknown_format", "not_a_log"))  # fmt: skip
"""What reading a file can find, before it has a status."""

TRANSITIONS: dict[tuple[str, str | None], frozenset[str]] = {
    ("ok", None): frozenset(STATUS_OF) - _FROM_READ,
    ("duplicate", "copy_of_stored"): frozenset(("copy_of_stored", "partial_copy", "round_disagrees")),
    ("duplicate", "partial_copy"): frozenset(("copy_of_stored", "partial_copy", "round_disagrees")),
    ("conflict", "round_disagrees"): frozenset(("round_disagrees",)),
    ("quarantined", "no_complete_round"): frozenset(("partial_copy",)),
}
"""(status, reason) a file is in -> the reason codes that may move it on (see the module docstring)."""

RESTATABLE = frozenset(state for state in TRANSITIONS if state[0] != "ok")
"""The (status, reason) of manifest rows a later batch may restate: it stores a better copy of their game."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """A file's status, its reason code (None when ok) and its one-line message naming the file."""

    status: str
    reason: str | None = None
    message: str | None = None


OK = Verdict("ok")
"""The status of a file read whose games are all stored (the state before any later stage finds otherwise)."""


def decide(reason: str, message: str, current: Verdict | None = None) -> Verdict:
    """The verdict of a file for which a stage found ``reason`` (a code of REASONS; ``message`` names the file and
    says the rest), from ``current`` (None: the file is being read and has no status yet). Raises WarehouseError
    (an internal error) for an unknown code or a transition the state machine does not allow."""
    status = STATUS_OF.get(reason)
    if status is None:
        raise WarehouseError(f"internal error: unknown manifest reason {reason!r}")
    allowed = _FROM_READ if current is None else TRANSITIONS.get((current.status, current.reason), frozenset())
    if reason not in allowed:
        where = "being read" if current is None else f"{current.status} ({current.reason})"
        raise WarehouseError(f"internal error: a file {where} cannot become {status} ({reason}): {message}")
    return Verdict(status, reason, message)


def restatable(status: str, reason: str | None) -> bool:
    """Whether a manifest row in this state may be restated by a later batch storing a copy of its game."""
    return (status, reason) in RESTATABLE
