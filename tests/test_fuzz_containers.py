"""Fuzzing the containers: mutated zip and tar archives and log databases never crash an ingest.

A few thousand containers are made (deterministically, from one seed) out of the real logs of ../shared/logs:
zip archives, tar archives (plain, gzip, bz2 and xz) and SQLite databases of the phoenix-logs and houou-logs
layouts. Some have their own bytes mutated (bytes flipped in the central directory, a local header, a tar
header, a database page or header; truncated; spans inserted, removed or repeated; the compressed stream of a
tar damaged); the others are well formed but hold hostile members: mutants of real logs (the plain-format
mutators of test_fuzz_ingest), names with '..', absolute, very long, repeated, hidden or odd; containers inside
containers; members over the (small) size limit; database rows holding REAL, INTEGER, BLOB, NULL, empty or huge
values, ids of the wrong type; databases without their table or columns; and two ``logs`` views, one endless
and one of too many rows (they cost the time and row bounds: LIMITS). Untouched containers of real logs found in
no other real log are the controls.

The folder is ingested once by ``paipu ingest`` in a child process (its exit code, stderr and peak memory are
the checks of an internal error and of the memory bound). Then: no exit 70 nor traceback; every entry the
containers list (listed again on their own, without reading) has exactly one manifest row, with a status and
a reason of REASONS; a well-formed container lists exactly the members it holds, and those whose fate is known
(a '..' name, a bound passed, a number in the log column...) get that status and reason; the controls' rows
are those of a clean run of the controls alone; and every stored game passes the invariant checks.
"""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import random
import re
import sqlite3
import struct
import subprocess
import sys
import tarfile
import warnings
import zipfile
import zlib
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from test_fuzz_ingest import BYTE_MUTATIONS, RealLog, make_mutant, real_logs, rows_of_games, stored_game_ids
from test_hostile_inputs import HOUOU, NEVER_ENDING, PEAK_KIB, PHOENIX, gzip_bomb

from pipeline.db import connect
from pipeline.ingest import STATUSES, containers, ingest
from pipeline.ingest.containers import SEPARATOR, entries
from pipeline.ingest.status import REASONS
from pipeline.invariants import SERVER_ONLY_CHECKS
from pipeline.limits import Limits, MiB
from pipeline.schema import TABLES
from pipeline.statistics import run_checks
from pipeline.store.warehouse import Warehouse

FUZZ = (pytest.mark.slow, pytest.mark.e2e)
"""Marks of the fuzzing tests (a few thousand containers ingested: about a minute on one core)."""

SEED = 20250612
"""Seed of the one random generator every container mutant is drawn from."""
LIMITS = Limits(max_bytes=MiB, max_rows=40, max_seconds=1.0)
"""Small bounds (the largest real log is under 1 MiB), passed to the child ingest for ``--max-file-mb``."""
BOMB = 4 * MiB
"""What a bomb member expands to: four times LIMITS.max_bytes."""
MAX_RSS_MIB = 1024
"""Bound of the child ingest's peak memory."""
N_MAX_MEMBERS = 4
"""Members of an archive or rows of a database made of real logs, at most."""

KINDS: dict[str, int] = {
    # the container's own bytes mutated
    "zip_flip": 80, "zip_flip_central": 100, "zip_flip_local": 100, "zip_flip_end": 40, "zip_truncate": 60,
    "zip_span": 60,
    "tar_flip": 60, "tar_flip_header": 100, "tar_header_fields": 120, "tar_truncate": 60, "tar_span": 60,
    "tgz_flip": 30, "tgz_truncate": 30, "txz_truncate": 20, "tbz_flip": 20,
    "db_flip_page": 100, "db_flip_schema": 40, "db_flip_header": 30, "db_truncate": 30,
    # well-formed containers of hostile members
    "zip_members": 120, "tar_members": 120, "db_members": 120,
    "zip_names": 50, "tar_names": 50, "db_ids": 40,
    "zip_nested": 20, "tar_nested": 20,
    "zip_bomb": 20, "tar_bomb": 15, "tgz_bomb": 10, "db_bomb": 15,
    "db_values": 60, "db_schema": 40, "tar_special": 20,
    "db_view_endless": 2, "db_view_many_rows": 2,
}  # fmt: skip
"""Container mutants made per kind."""

QUARANTINED = ("quarantined", "unreadable")
TOO_LARGE = ("quarantined", "too_large")
PENDING = ("pending", "not_downloaded")
UNKNOWN = ("not_a_log", "unknown_format")


# --- what a container holds ------------------------------------------------------------------
@dataclass(frozen=True)
class Member:
    """A member put into a container: its raw name (a database row's id, of any SQLite type), its bytes (a
    row's log: any SQLite value) and, when known, the (status, reason) its manifest row must have."""

    name: Any
    data: Any
    expect: tuple[str, str] | None = None


@dataclass
class ContainerMutant:
    """A container file of the fuzzed folder: its bytes, the kind of mutant and how it was made; ``members``:
    what a well-formed container holds (None when its bytes were mutated: then anything may be listed);
    ``itself``: the (status, reason) of a row named by the container's own path, when one is due (a listing
    stopped by a bound, a database that holds no logs)."""

    name: str
    kind: str
    data: bytes
    how: str
    members: list[Member] | None = None
    itself: tuple[str, str] | None = None
    path: str = ""

    def describe(self) -> str:
        """One line naming the mutant and how it was made (to reproduce a failure)."""
        return f"{self.name} ({self.kind}: {self.how})"


def expected_member_name(container: str, raw: Any) -> str | None:
    """The member part of the entry name a member gets (before a ';N' of a repeated name), or None for one
    skipped by design (hidden, no name); a database row's id as containers._row_id writes it."""
    if container == "db":
        raw = "logs/" + (raw if isinstance(raw, str) else _sql_literal(raw))
    raw = re.sub(r"[\x00-\x1f\x7f]", lambda found: f"\\x{ord(found[0]):02x}", raw)  # one line: written as \xNN
    parts = [part for part in raw.split("/") if part not in ("", ".")]
    if not parts or any((p.startswith(".") and p != "..") or p == "__MACOSX" for p in parts):
        return None
    return "/".join(parts)


def _sql_literal(value: Any) -> str:
    """A non-text id as a member name writes it."""
    if isinstance(value, bytes):
        return f"x'{value[:32].hex()}{'...' if len(value) > 32 else ''}'"
    return "NULL" if value is None else str(value) if isinstance(value, int) else repr(value)


# --- building containers -----------------------------------------------------------------------
def build_zip(members: list[Member], rng: random.Random, compression: int | None = None) -> bytes:
    """A zip archive of the members (``compression``, else deflated or stored as drawn; repeated names kept), as
    bytes."""
    buffer = io.BytesIO()
    if compression is None:
        compression = rng.choice((zipfile.ZIP_DEFLATED, zipfile.ZIP_DEFLATED, zipfile.ZIP_STORED))
    with warnings.catch_warnings(), zipfile.ZipFile(buffer, "w", compression) as archive:
        warnings.simplefilter("ignore")  # "Duplicate name": on purpose
        for member in members:
            info = zipfile.ZipInfo(member.name, (2020, 5, 27, 0, 0, 0))
            info.compress_type = compression
            archive.writestr(info, member.data)
    return buffer.getvalue()


TAR_MODES = {"tar": "w", "tgz": "w:gz", "tbz": "w:bz2", "txz": "w:xz"}


def build_tar(members: list[Member], mode: str = "w", special: list[tarfile.TarInfo] | None = None) -> bytes:
    """A tar archive (``mode``: a tarfile write mode) of the members (long names in the GNU or pax way) and of
    ``special`` header-only entries, as bytes."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode, format=tarfile.GNU_FORMAT) as archive:
        for member in members:
            info = tarfile.TarInfo(member.name)
            info.size, info.mtime = len(member.data), 1590537600
            archive.addfile(info, io.BytesIO(member.data))
        for info in special or []:
            archive.addfile(info)
    return buffer.getvalue()


def build_db(scratch: Path, schema: str, rows: list[tuple[Any, ...]], table: str = "logs") -> bytes:
    """A SQLite file made by ``schema``, its ``table`` holding ``rows``, as bytes (made in ``scratch``)."""
    path = scratch / "build.db"
    path.unlink(missing_ok=True)
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA synchronous = OFF")  # a scratch file: no need to wait for the disk
        db.execute("PRAGMA journal_mode = MEMORY")
        db.execute(schema)
        if rows:
            db.executemany(f"INSERT INTO {table} VALUES ({', '.join('?' * len(rows[0]))})", rows)
        db.commit()
    return path.read_bytes()


def compress_log(data: bytes, rng: random.Random, kinds: tuple[str, ...] = ("plain", "gzip", "bz2", "zlib")) -> bytes:
    """A log as a database row or archive member may hold it: plain, gzip, bz2 or zlib (drawn from ``kinds``)."""
    kind = rng.choice(kinds)
    if kind == "gzip":
        return gzip.compress(data, mtime=0)
    return bz2.compress(data) if kind == "bz2" else zlib.compress(data) if kind == "zlib" else data


# --- mutations of a container's bytes ------------------------------------------------------------
def flip_in(data: bytes, start: int, end: int, rng: random.Random) -> bytes:
    """XOR one to four random bytes of data[start:end] (the whole data when that is empty)."""
    out = bytearray(data)
    if end <= start:
        start, end = 0, len(out)
    for _ in range(rng.randint(1, 4)):
        out[rng.randrange(start, end)] ^= 1 << rng.randrange(8) if rng.random() < 0.5 else rng.randrange(1, 256)
    return bytes(out)


def zip_regions(data: bytes) -> dict[str, list[tuple[int, int]]]:
    """Byte ranges of a zip's parts: its local headers (with the names), central directory and end record."""
    end = data.rfind(b"PK\x05\x06")
    central = struct.unpack("<I", data[end + 16 : end + 20])[0]
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        local = [(i.header_offset, i.header_offset + 30 + len(i.filename.encode())) for i in archive.infolist()]
    return {"local": local, "central": [(central, end)], "end": [(end, len(data))]}


def tar_headers(data: bytes) -> list[int]:
    """Offsets of the header blocks of a tar (long-name blocks included)."""
    offsets = []
    with tarfile.open(fileobj=io.BytesIO(data)) as archive:
        for info in archive:
            offsets.append(info.offset)
    return offsets


_TAR_FIELDS = ((0, 100), (100, 124), (124, 136), (136, 148), (156, 157), (157, 257), (257, 265), (345, 500))
"""(start, end) of a tar header's name, mode/uid/gid, size, mtime, type, link name, magic/version, prefix."""


def with_checksum(header: bytearray) -> bytearray:
    """A tar header block with its checksum field made right again."""
    header[148:156] = b" " * 8
    header[148:156] = b"%06o\0 " % sum(header)
    return header


def tar_header_fields(data: bytes, rng: random.Random) -> bytes:
    """Garble one field of one tar header (a number made junk, huge or negative, the type another, the name
    cut...) and make its checksum right again, so that the reader goes past the checksum."""
    out = bytearray(data)
    at = rng.choice(tar_headers(data))
    start, end = rng.choice(_TAR_FIELDS)
    value = rng.choice([b"", b"\0", b"7" * (end - start), b"\x80" + b"\xff" * (end - start - 1), b"\xff" * 8,
                        b"-1", b"99999999999", rng.randbytes(end - start),
                        bytes([rng.choice(b"0123456789LKSxgAV")])])  # fmt: skip
    field_bytes = value.ljust(end - start, b"\0")[: end - start]
    out[at + start : at + end] = field_bytes
    out[at : at + 512] = with_checksum(out[at : at + 512])
    return bytes(out)


def sqlite_page(data: bytes, rng: random.Random, schema: bool) -> tuple[int, int]:
    """(start, end) of a database page: the schema page (page 1, past its file header) or another one."""
    size = struct.unpack(">H", data[16:18])[0]
    size = 65536 if size == 1 else size
    pages = max(len(data) // size, 1)
    if schema or pages == 1:
        return 100, min(size, len(data))
    page = rng.randrange(1, pages)
    return page * size, (page + 1) * size


# --- the mutants -------------------------------------------------------------------------------
@dataclass
class Maker:
    """Makes the container mutants from the real logs (``sources``: never a control), one random generator."""

    sources: list[RealLog]
    rng: random.Random
    scratch: Path
    number: int = 0
    xml: bytes = b""
    """A real Tenhou XML log (for the members whose fate is known)."""
    head: bytes = b""
    """A Tenhou XML log's head (no round): detected as one, the start of the bombs."""
    gzip_bomb: bytes = b""
    """Gzip data of ``head`` and BOMB spaces (made once)."""
    bz2_bomb: bytes = b""
    """Bz2 data of ``head`` and BOMB spaces (made once)."""
    made: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.xml = next(s.plain for s in self.sources if s.format == "tenhou_xml" and s.stores_a_game)
        self.head = self.xml[: self.xml.index(b"<INIT")]
        self.gzip_bomb = gzip_bomb(self.head, BOMB)
        self.bz2_bomb = bz2.compress(self.head + b" " * BOMB)

    def log_members(self, n: int, mutate: float = 0.7) -> list[Member]:
        """``n`` members of real logs (their file names), most of them mutated (test_fuzz_ingest.make_mutant)."""
        members = []
        for _ in range(n):
            self.number += 1
            log = self.rng.choice(self.sources)
            if self.rng.random() < mutate:
                mutant = make_mutant(self.number, log, self.rng)
                members.append(Member(f"{self.rng.choice(('', 'logs/', 'a/b/'))}{mutant.name}", mutant.data))
            else:
                data = gzip.compress(log.plain, mtime=0) if log.is_gzip else log.plain
                members.append(Member(f"r{self.number:05d}/{Path(log.relative).name}", data))
        return members

    def make(self, kind: str) -> ContainerMutant:
        """One container mutant of a kind (KINDS)."""
        self.made[kind] += 1
        name = f"{kind}-{self.made[kind]:04d}"
        family, _, how = kind.partition("_")
        maker: Callable[[str, str], ContainerMutant] = getattr(self, f"_{kind}", None) or getattr(self, f"_{family}")
        return maker(name, how)

    # --- zip ---
    def _zip(self, name: str, how: str) -> ContainerMutant:
        """A zip of real logs, its bytes mutated in one of its parts (or anywhere)."""
        members = self.log_members(self.rng.randint(1, N_MAX_MEMBERS), mutate=0.3)
        data = build_zip(members, self.rng)
        regions = zip_regions(data)
        if how in ("flip_central", "flip_local", "flip_end"):
            start, end = self.rng.choice(regions[how.removeprefix("flip_")])
            data = flip_in(data, start, end, self.rng)
        elif how == "flip":
            data = flip_in(data, 0, len(data), self.rng)
        elif how == "truncate":
            data = data[: self.rng.randrange(4, len(data))]
        else:
            mutation = self.rng.choice(("insert_bytes", "delete_span", "duplicate_span"))
            how = f"span:{mutation}"
            data = BYTE_MUTATIONS[mutation](data, self.rng)
        return ContainerMutant(f"{name}.zip", "zip_" + how.split(":")[0], data, how)

    def _zip_members(self, name: str, how: str) -> ContainerMutant:
        members = self.log_members(self.rng.randint(1, N_MAX_MEMBERS))
        return ContainerMutant(f"{name}.zip", "zip_members", build_zip(members, self.rng), how, members)

    def hostile_names(self) -> list[Member]:
        """Members named with '..', absolutely, very long, repeated, hidden or oddly, and one good log."""
        good = self.log_members(1, mutate=0.0)[0]
        names: list[tuple[str, tuple[str, str] | None]] = [
            ("../up.mjlog", QUARANTINED), ("a/../../up.mjlog", QUARANTINED), ("..", QUARANTINED),
            ("/abs/olute.mjlog", None), ("//double//slash.mjlog", None), ("./here.mjlog", None),
            ("x" * self.rng.choice((101, 255, 1000, 4000)) + ".mjlog", None),
            ("deep/" * 60 + "d.mjlog", None), ("dup.mjlog", None), ("dup.mjlog", None), ("dup.mjlog;2", None),
            (".hidden.mjlog", None), ("__MACOSX/._x.mjlog", None), ("sp ace\tand\nnewline.mjlog", None),
            ("back\\slash.mjlog", None), ("uni-é-麻雀.mjlog", None), ("bang!/in.mjlog", None), ("a.zip!/b", None),
            ("%2e%2e/pct.mjlog", None), ("trailing.mjlog/", None),
        ]  # fmt: skip
        chosen = self.rng.sample(names, self.rng.randint(3, 8))
        if self.rng.random() < 0.5:
            chosen += [("dup.mjlog", None)] * 2 + [("dup.mjlog;2", None)]  # a name repeated, and 'name;2' as well
        data = [self.rng.choice((self.xml, b"not a log\n", good.data)) for _ in chosen]
        return [good, *(Member(n, d, e) for (n, e), d in zip(chosen, data, strict=True))]

    def _zip_names(self, name: str, how: str) -> ContainerMutant:
        members = [m for m in self.hostile_names() if not m.name.endswith("/")]  # a zip member ending in / is a folder
        return ContainerMutant(f"{name}.zip", "zip_names", build_zip(members, self.rng), how, members)

    def nested(self) -> list[Member]:
        """Containers as members: a zip, a tar, a tar.gz and a log database of real logs, and one good log."""
        inner = self.log_members(2, mutate=0.0)
        rows = [(m.name, m.data) for m in inner]
        made = {
            "inner.zip": lambda: build_zip(inner, self.rng), "inner.tar": lambda: build_tar(inner),
            "inner.tar.gz": lambda: build_tar(inner, "w:gz"), "inner.db": lambda: build_db(self.scratch, HOUOU, rows),
            "inner.mjlog.gz": lambda: gzip.compress(build_zip(inner, self.rng)),
        }  # fmt: skip
        chosen = self.rng.sample(sorted(made), self.rng.randint(1, 3))
        return [*self.log_members(1, mutate=0.0), *(Member(n, made[n]()) for n in chosen)]  # read as they look

    def _zip_nested(self, name: str, how: str) -> ContainerMutant:
        members = self.nested()
        return ContainerMutant(f"{name}.zip", "zip_nested", build_zip(members, self.rng), how, members)

    def _zip_bomb(self, name: str, how: str) -> ContainerMutant:
        """A deflated member over the limit, or a stored gzip bomb, beside real logs."""
        members = self.log_members(self.rng.randint(0, 2), mutate=0.0)
        if self.rng.random() < 0.5:
            bomb = Member("bomb.mjlog", self.head + b" " * BOMB, TOO_LARGE)
            how = "deflated member over the limit"
            data = build_zip([*members, bomb], self.rng, zipfile.ZIP_DEFLATED)
        else:
            bomb = Member("bomb.mjlog.gz", self.gzip_bomb, TOO_LARGE)
            how = "gzip bomb member"
            data = build_zip([*members, bomb], self.rng)
        return ContainerMutant(f"{name}.zip", "zip_bomb", data, how, [*members, bomb])

    # --- tar ---
    def _tar(self, name: str, how: str) -> ContainerMutant:
        """A plain tar of real logs, its bytes mutated in a header (or anywhere)."""
        members = self.log_members(self.rng.randint(1, N_MAX_MEMBERS), mutate=0.3)
        data = build_tar(members)
        if how == "flip_header":
            at = self.rng.choice(tar_headers(data))
            data = flip_in(data, at, at + 512, self.rng)
        elif how == "header_fields":
            data = tar_header_fields(data, self.rng)
        elif how == "flip":
            data = flip_in(data, 0, len(data), self.rng)
        elif how == "truncate":
            data = data[: self.rng.randrange(512, len(data))]
        else:
            mutation = self.rng.choice(("insert_bytes", "delete_span", "duplicate_span", "header_block"))
            if mutation == "header_block":  # a header block repeated elsewhere: the blocks after it shifted
                at = self.rng.choice(tar_headers(data))
                to = self.rng.randrange(0, len(data) // 512) * 512
                data = data[:to] + data[at : at + 512] + data[to:]
            else:
                data = BYTE_MUTATIONS[mutation](data, self.rng)
            how = f"span:{mutation}"
        return ContainerMutant(f"{name}.tar", "tar_" + how.split(":")[0], data, how)

    def _compressed_tar(self, name: str, how: str) -> ContainerMutant:
        """A compressed tar of real logs (its compression: the kind's first word), the compressed bytes flipped
        or cut, or (one in three) its inner tar's header fields garbled."""
        members = self.log_members(self.rng.randint(1, N_MAX_MEMBERS), mutate=0.3)
        kind = name.rsplit("-", 1)[0]
        compression = kind.partition("_")[0]
        if self.rng.random() < 0.33:
            inner = tar_header_fields(build_tar(members), self.rng)
            packed = {"tgz": gzip.compress, "tbz": bz2.compress, "txz": lzma.compress}[compression](inner)
            return ContainerMutant(f"{name}.{compression}", kind, packed, "inner header fields")
        data = build_tar(members, TAR_MODES[compression])
        cut = data[: self.rng.randrange(10, len(data))]
        return ContainerMutant(f"{name}.{compression}", kind, flip_in(data, 10, len(data), self.rng) if how == "flip"
                               else cut, how)  # fmt: skip

    _tgz = _tbz = _txz = _compressed_tar

    def _tar_members(self, name: str, how: str) -> ContainerMutant:
        members = self.log_members(self.rng.randint(1, N_MAX_MEMBERS))
        compression = self.rng.choice(("tar", "tar", "tgz", "tbz", "txz"))
        data = build_tar(members, TAR_MODES[compression])
        return ContainerMutant(f"{name}.{compression}", "tar_members", data, compression, members)

    def _tar_names(self, name: str, how: str) -> ContainerMutant:
        members = self.hostile_names()
        return ContainerMutant(f"{name}.tar", "tar_names", build_tar(members), how, members)

    def _tar_nested(self, name: str, how: str) -> ContainerMutant:
        members = self.nested()
        compression = self.rng.choice(("tar", "tgz"))
        return ContainerMutant(f"{name}.{compression}", "tar_nested", build_tar(members, TAR_MODES[compression]),
                               compression, members)  # fmt: skip

    def _tar_bomb(self, name: str, how: str) -> ContainerMutant:
        """A plain tar with a member over the limit (the members after it listed) or a gzip bomb member."""
        before, after = self.log_members(1, mutate=0.0), self.log_members(1, mutate=0.0)
        if self.rng.random() < 0.5:
            bomb = Member("bomb.mjlog", self.head + b" " * (LIMITS.max_bytes + 1), TOO_LARGE)
        else:
            bomb = Member("bomb.mjlog.gz", self.gzip_bomb, TOO_LARGE)
        members = [*before, bomb, *after]
        return ContainerMutant(f"{name}.tar", "tar_bomb", build_tar(members), bomb.name, members)

    def _tgz_bomb(self, name: str, how: str) -> ContainerMutant:
        """A tar.gz with a member over the limit: not listed past it (the container's own row says so)."""
        before = self.log_members(1, mutate=0.0)
        bomb = Member("bomb.mjlog", self.head + b" " * BOMB, TOO_LARGE)
        after = Member("after.mjlog", self.xml)  # not listed
        data = build_tar([*before, bomb, after], "w:gz")
        return ContainerMutant(f"{name}.tgz", "tgz_bomb", data, how, [*before, bomb], TOO_LARGE)

    def _tar_special(self, name: str, how: str) -> ContainerMutant:
        """Links, a FIFO, devices and a folder beside real logs: skipped by design (no rows)."""
        members = self.log_members(self.rng.randint(1, 2), mutate=0.0)
        special = []
        for type_, link in ((tarfile.SYMTYPE, members[0].name), (tarfile.LNKTYPE, members[0].name),
                            (tarfile.SYMTYPE, "../../etc/passwd"), (tarfile.FIFOTYPE, ""), (tarfile.CHRTYPE, ""),
                            (tarfile.BLKTYPE, ""), (tarfile.DIRTYPE, "")):  # fmt: skip
            if self.rng.random() < 0.6:
                info = tarfile.TarInfo(f"special-{len(special)}")
                info.type, info.linkname = type_, link
                special.append(info)
        data = build_tar(members, self.rng.choice(("w", "w:gz")), special)
        return ContainerMutant(f"{name}.tar", "tar_special", data, f"{len(special)} special", members)

    # --- SQLite ---
    def db_rows(self, n: int, mutate: float = 0.7) -> list[Member]:
        """Rows of real logs (most of them mutated), compressed as the downloaders store them or not."""
        return [Member(m.name, compress_log(m.data, self.rng)) for m in self.log_members(n, mutate)]

    def db_layout(self) -> str:
        """The schema of a houou-logs or phoenix-logs database, drawn."""
        return self.rng.choice((HOUOU, PHOENIX))

    def _db(self, name: str, how: str) -> ContainerMutant:
        """A log database of real logs, a page, its schema page or file header flipped, or the file cut."""
        rows = self.db_rows(self.rng.randint(1, N_MAX_MEMBERS), mutate=0.3)
        data = build_db(self.scratch, self.db_layout(), [(m.name, m.data) for m in rows])
        if how == "flip_header":
            data = flip_in(data, 16, 100, self.rng)
        elif how in ("flip_page", "flip_schema"):
            start, end = sqlite_page(data, self.rng, how == "flip_schema")
            if self.rng.random() < 0.5:  # the page header and cell pointers
                end = min(end, start + 24)
            data = flip_in(data, start, end, self.rng)
        else:
            data = data[: self.rng.randrange(100, len(data))]
        return ContainerMutant(f"{name}.db", f"db_{how}", data, how)

    def _db_members(self, name: str, how: str) -> ContainerMutant:
        rows = self.db_rows(self.rng.randint(1, N_MAX_MEMBERS))
        layout = self.db_layout()
        data = build_db(self.scratch, layout, [(m.name, m.data) for m in rows])
        return ContainerMutant(f"{name}.db", "db_members", data, "houou" if layout == HOUOU else "phoenix", rows)

    def _db_values(self, name: str, how: str) -> ContainerMutant:
        """Rows whose log is REAL, INTEGER, NULL, empty, junk, huge, a bomb, or text where bytes are due."""
        good = self.db_rows(1, mutate=0.0)
        values: list[tuple[Any, tuple[str, str] | None]] = [
            (1.5, QUARANTINED), (10**12, QUARANTINED), (-1, QUARANTINED), (None, PENDING), ("", PENDING),
            (b"", PENDING), (self.rng.randbytes(64), UNKNOWN), ("x" * (LIMITS.max_bytes + 10), TOO_LARGE),
            (self.head + b" " * (LIMITS.max_bytes + 10), TOO_LARGE), (self.gzip_bomb, TOO_LARGE),
            (self.bz2_bomb, TOO_LARGE), (self.xml.decode(), None),
            (b"\x1f\x8b\x08\x00" + self.rng.randbytes(40), QUARANTINED), (b"BZh9" + self.rng.randbytes(40), None),
            (gzip.compress(self.xml)[: self.rng.randrange(20, 400)], None), (b"\xff\xfe" + self.xml, None),
        ]  # fmt: skip
        chosen = self.rng.sample(values, self.rng.randint(2, 6))
        layout = self.db_layout()
        if layout == PHOENIX:  # a number in a column of text affinity is stored as text
            chosen = [(v, None if isinstance(v, int | float) and v is not None else e) for v, e in chosen]
        rows = [*good, *(Member(f"v{i:02d}-{type(v).__name__}", v, e) for i, (v, e) in enumerate(chosen))]
        data = build_db(self.scratch, layout, [(m.name, m.data) for m in rows])
        return ContainerMutant(f"{name}.db", "db_values", data, "houou" if layout == HOUOU else "phoenix", rows)

    def _db_ids(self, name: str, how: str) -> ContainerMutant:
        """Rows whose id is REAL, BLOB, NULL, an integer, a path with '..', hidden, odd text, or a huge text."""
        log = gzip.compress(self.xml, mtime=0)
        ids: list[tuple[Any, tuple[str, str] | None]] = [
            (2.5, QUARANTINED), (b"\x00\xff", QUARANTINED), (b"b" * 40, QUARANTINED), (None, QUARANTINED),
            (20190101, None), ("../../etc/passwd", QUARANTINED), (".hidden", None), ("a/./b//c", None),
            ("nul\x00in", None), ("new\nline", None), ("", None), ("x" * 5000, None), ("é麻", None),
        ]  # fmt: skip
        chosen = self.rng.sample(ids, self.rng.randint(2, 5))
        rows = [*self.db_rows(1, mutate=0.0), *(Member(i, log, e) for i, e in chosen)]
        data = build_db(self.scratch, "CREATE TABLE logs(id, log)", [(m.name, m.data) for m in rows])
        return ContainerMutant(f"{name}.db", "db_ids", data, how, rows)

    def _db_bomb(self, name: str, how: str) -> ContainerMutant:
        rows = self.db_rows(1, mutate=0.0)
        bomb = Member("2019010100gm-00a9-0000-00000b0b", self.gzip_bomb, TOO_LARGE)
        data = build_db(self.scratch, self.db_layout(), [(m.name, m.data) for m in [*rows, bomb]])
        return ContainerMutant(f"{name}.db", "db_bomb", data, how, [*rows, bomb])

    def _db_schema(self, name: str, how: str) -> ContainerMutant:
        """A database without a logs table or its id or log column (a plain file: not a log), or with odd but
        known columns (a container)."""
        rows = [(m.name, m.data) for m in self.db_rows(2, mutate=0.0)]
        schemas = [
            ("CREATE TABLE games(id, log)", "no logs table"), ("CREATE TABLE logs(id, content)", "no log column"),
            ("CREATE TABLE logs(name, log)", "no id column"), ("CREATE TABLE logs(log_id, log_content, extra)", ""),
            ("CREATE TABLE logs(id INTEGER, log REAL)", ""), ("CREATE TABLE logs(id, log_content)", ""),
            ("CREATE TABLE logs(log_id, log_content, id, log)", ""),
        ]  # fmt: skip
        schema, plain = self.rng.choice(schemas)
        n_columns = schema.count(",") + 1
        filled = [(*row, *row[: n_columns - 2]) for row in rows]
        data = build_db(self.scratch, schema, filled, schema.split()[2].split("(")[0])
        if plain:
            return ContainerMutant(f"{name}.db", "db_schema", data, plain, [], UNKNOWN)
        return ContainerMutant(f"{name}.db", "db_schema", data, schema, [Member(i, d) for i, d in rows])

    def _db_view_endless(self, name: str, how: str) -> ContainerMutant:
        data = build_db(self.scratch, NEVER_ENDING, [])
        return ContainerMutant(f"{name}.db", "db_view_endless", data, how, [], TOO_LARGE)

    def _db_view_many_rows(self, name: str, how: str) -> ContainerMutant:
        """A view of LIMITS.max_rows + 10 rows (listed up to the bound, then the container's row)."""
        n = LIMITS.max_rows + 10
        view = (f"CREATE VIEW logs AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n}) "
                "SELECT printf('2019010100gm-00a9-0000-%08x', i) AS log_id, 'x' AS log_content FROM n")  # fmt: skip
        data = build_db(self.scratch, view, [])
        members = [Member(f"2019010100gm-00a9-0000-{i:08x}", "x", UNKNOWN) for i in range(1, LIMITS.max_rows + 1)]
        return ContainerMutant(f"{name}.db", "db_view_many_rows", data, how, members, TOO_LARGE)


def make_container_mutants(sources: list[RealLog], scratch: Path, seed: int = SEED) -> list[ContainerMutant]:
    """The container mutants of KINDS, made from ``sources`` in a deterministic order."""
    maker = Maker(sources, random.Random(seed), scratch)
    return [maker.make(kind) for kind, n in KINDS.items() for _ in range(n)]


# --- the controls ------------------------------------------------------------------------------
def unique_logs(logs: list[RealLog]) -> list[RealLog]:
    """The real logs that store a game and share no game id or fingerprint with any other real log."""
    seen = Counter(identity for log in logs for identity in log.identities)
    return [log for log in logs if log.stores_a_game and all(seen[i] == 1 for i in log.identities)]


def control_containers(logs: list[RealLog], scratch: Path) -> tuple[list[ContainerMutant], list[RealLog]]:
    """Untouched containers of unique real logs (one per format at least; a zip, a tar, a tar.gz, a tar.xz and
    both database layouts), and the logs they hold."""
    unique = unique_logs(logs)
    picked: list[RealLog] = []
    for fmt in ("tenhou_xml", "tenhou_json", "mjai", "majsoul"):
        picked += [log for log in unique if log.format == fmt][:2]
    picked += [log for log in unique if log.format == "tenhou_xml" and log not in picked][:4]
    assert len(picked) >= 10, "too few unique real logs for the controls"
    as_member = [Member(Path(log.relative).name, gzip.compress(log.plain, mtime=0) if log.is_gzip else log.plain)
                 for log in picked]  # fmt: skip
    rng = random.Random(SEED)
    made = [
        ContainerMutant("control.zip", "control", build_zip(as_member[0:3], rng), "zip", as_member[0:3]),
        ContainerMutant("control.tar", "control", build_tar(as_member[3:5]), "tar", as_member[3:5]),
        ContainerMutant("control.tar.gz", "control", build_tar(as_member[5:7], "w:gz"), "tar.gz", as_member[5:7]),
        ContainerMutant("control.tar.xz", "control", build_tar(as_member[7:8], "w:xz"), "tar.xz", as_member[7:8]),
    ]
    for schema, label, chosen in ((HOUOU, "houou", picked[8:9]), (PHOENIX, "phoenix", picked[9:10])):
        rows = [Member(Path(log.relative).stem, compress_log(log.plain, rng, ("gzip", "bz2"))) for log in chosen]
        data = build_db(scratch, schema, [(m.name, m.data) for m in rows])
        made.append(ContainerMutant(f"control-{label}.db", "control", data, label, rows))
    return made, picked[:10]


# --- the fuzzed folder, ingested once ------------------------------------------------------------
RUN = PEAK_KIB + """
import json, sys, time
from types import SimpleNamespace
import pipeline.cli as cli
from pipeline.limits import Limits
folder, warehouse, result, max_bytes, max_rows, max_seconds = sys.argv[1:]
limits = Limits(max_bytes=int(max_bytes), max_rows=int(max_rows), max_seconds=float(max_seconds))
cli.writers.Limits = SimpleNamespace(of_file_mb=lambda mb: limits)  # the row and time bounds have no option
started = time.perf_counter()
try:
    cli.app(["ingest", folder, "-w", warehouse, "--no-derive", "--workers", "1"], prog_name="paipu")
    code = 0
except SystemExit as exc:
    code = exc.code
with open(result, "w") as out:
    json.dump({"exit": code, "seconds": time.perf_counter() - started,
               "max_rss_kib": peak_kib()}, out)
"""
"""The child ingest: ``paipu ingest FOLDER -w WAREHOUSE`` with LIMITS, its exit code, time and peak memory."""


@dataclass
class Fuzzed:
    """The fuzzed folder: its containers by absolute path, the controls' logs, the entries each container lists
    (listed again, without reading), the child ingest's outcome, the warehouse and its manifest by path."""

    folder: Path
    containers: dict[str, ContainerMutant]
    controls: list[RealLog]
    listed: dict[str, list[str]]
    run: dict
    stderr: str
    warehouse: Warehouse
    rows: list[dict]

    def owner(self, entry: str) -> ContainerMutant:
        """The container an entry name belongs to."""
        return self.containers[entry.split(SEPARATOR, 1)[0]]


@pytest.fixture(scope="module")
def fuzzed(shared_logs: Path, tmp_path_factory: pytest.TempPathFactory) -> Fuzzed:
    """The container mutants and the controls written into one folder, listed, and ingested by the CLI."""
    root = tmp_path_factory.mktemp("fuzz_containers")
    scratch, folder = root / "scratch", root / "in"
    scratch.mkdir()
    folder.mkdir()
    logs = real_logs(shared_logs)
    controls, control_logs = control_containers(logs, scratch)
    sources = [log for log in logs if log not in control_logs]
    written: dict[str, ContainerMutant] = {}
    for mutant in [*make_container_mutants(sources, scratch), *controls]:
        path = folder / mutant.name
        path.write_bytes(mutant.data)
        mutant.path = str(path.resolve())
        written[mutant.path] = mutant
    listed = {path: [e.name for e in entries(path, LIMITS)] for path in written}
    containers.close_all()
    result = root / "run.json"
    args = [str(folder), str(root / "warehouse"), str(result), str(LIMITS.max_bytes), str(LIMITS.max_rows),
            str(LIMITS.max_seconds)]  # fmt: skip
    with open(root / "stdout.txt", "wb") as stdout:
        child = subprocess.run([sys.executable, "-c", RUN, *args], stdout=stdout, stderr=subprocess.PIPE,
                               text=True, timeout=900, check=False)  # fmt: skip
    run = json.loads(result.read_text()) if result.exists() else {"exit": child.returncode}
    warehouse = Warehouse(root / "warehouse")
    return Fuzzed(folder, written, control_logs, listed, run, child.stderr, warehouse,
                  warehouse.read_manifest().to_pylist())  # fmt: skip


# --- the tests ---------------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.e2e
def test_the_mutants_are_those_of_every_kind(fuzzed: Fuzzed) -> None:
    """The fuzzing is what it claims: thousands of containers of every kind, mostly distinct, and the members."""
    made = Counter(m.kind for m in fuzzed.containers.values() if m.kind != "control")
    assert made == Counter(KINDS), made
    assert len({m.data for m in fuzzed.containers.values()}) > 0.95 * len(fuzzed.containers)
    n_entries = sum(len(names) for names in fuzzed.listed.values())
    assert n_entries > 2 * sum(KINDS.values()), n_entries


@pytest.mark.slow
@pytest.mark.e2e
def test_the_ingest_ends_without_an_internal_error_within_its_memory(fuzzed: Fuzzed) -> None:
    """The CLI exits 3 (some members quarantined), never 70, prints no traceback, and its peak memory is
    bounded."""
    assert fuzzed.run["exit"] == 3, (fuzzed.run, fuzzed.stderr[-3000:])
    assert "Traceback" not in fuzzed.stderr and "internal error" not in fuzzed.stderr, fuzzed.stderr[-3000:]
    assert fuzzed.run["max_rss_kib"] < MAX_RSS_MIB * 1024, f"peak memory {fuzzed.run['max_rss_kib'] // 1024} MiB"


@pytest.mark.slow
@pytest.mark.e2e
def test_every_listed_entry_has_exactly_one_row_with_a_reason_of_its_status(fuzzed: Fuzzed) -> None:
    """The manifest holds one row per entry the containers list (no entry named twice), each with a known status
    and a reason of that status; a row not stored names its container, on one line."""
    names = Counter(name for listed in fuzzed.listed.values() for name in listed)
    twice = [f"{fuzzed.owner(n).describe()}: {n!r}" for n, count in names.items() if count > 1]
    assert not twice, f"{len(twice)} entry names listed twice:\n" + "\n".join(twice[:5])
    paths = Counter(row["path"] for row in fuzzed.rows)
    assert paths == names, (set(paths) ^ set(names), max(paths.values()))
    for row in fuzzed.rows:
        what = fuzzed.owner(row["path"]).describe()
        assert row["status"] in STATUSES, what
        assert row["reason"] in (REASONS[row["status"]] or (None,)), (what, row["status"], row["reason"])
        if row["status"] in ("quarantined", "not_a_log", "skipped", "pending"):
            error = row["error"] or ""
            assert row["path"].split(SEPARATOR)[0] in error and "\n" not in error, (what, error)
    statuses = Counter(row["status"] for row in fuzzed.rows)
    assert min(statuses[s] for s in ("ok", "duplicate", "quarantined", "not_a_log", "pending")) > 0, statuses


@pytest.mark.slow
@pytest.mark.e2e
def test_a_well_formed_container_lists_exactly_its_members_with_their_known_fate(fuzzed: Fuzzed) -> None:
    """A container built whole lists every member it holds but those skipped by design (no more, and no row
    for itself unless one is due), and a member whose fate is known gets that status and reason."""
    rows = {row["path"]: row for row in fuzzed.rows}
    wrong = []
    for path, mutant in fuzzed.containers.items():
        if mutant.members is None:
            continue
        family = "db" if mutant.name.endswith(".db") else "archive"
        expected = [(expected_member_name(family, m.name), m) for m in mutant.members]
        expected = [(name, m) for name, m in expected if name is not None]
        listed = fuzzed.listed[path]
        members = [n for n in listed if n != path]
        if len(members) != len(expected) or (path in listed) != (mutant.itself is not None):
            wrong.append(f"{mutant.describe()}: lists {listed}, holds {[n for n, _ in expected]}")
            continue
        if mutant.itself is not None and (rows[path]["status"], rows[path]["reason"]) != mutant.itself:
            wrong.append(f"{mutant.describe()}: its own row {rows[path]['status']}, {rows[path]['reason']}: "
                         f"{rows[path]['error']}")  # fmt: skip
        for name, member in expected:
            entry = f"{path}{SEPARATOR}{name}"
            if entry not in rows:
                wrong.append(f"{mutant.describe()}: no row for member {name!r}")
            elif member.expect is not None and (rows[entry]["status"], rows[entry]["reason"]) != member.expect:
                row = rows[entry]
                wrong.append(f"{mutant.describe()}: {name[:60]!r} is {row['status']}, {row['reason']} "
                             f"(not {member.expect}): {row['error']}")  # fmt: skip
    assert not wrong, f"{len(wrong)} containers wrongly read:\n" + "\n".join(w[:400] for w in wrong[:20])


@pytest.mark.slow
@pytest.mark.e2e
def test_the_controls_rows_are_those_of_a_clean_run(fuzzed: Fuzzed) -> None:
    """The untouched containers' members are stored exactly as when the controls are ingested alone (the same
    paths), in every fact table."""
    controls = [p for p, m in fuzzed.containers.items() if m.kind == "control"]
    rows = {row["path"]: row for row in fuzzed.rows}
    members = [n for p in controls for n in fuzzed.listed[p]]
    assert len(members) == len(fuzzed.controls)
    assert {n: rows[n]["status"] for n in members} == dict.fromkeys(members, "ok")
    alone = Warehouse(fuzzed.folder.parent / "controls_warehouse")
    report = ingest([Path(p) for p in controls], alone, limits=LIMITS)
    assert report.files["ok"] == len(members), report.problems
    ids = sorted(stored_game_ids(alone))
    assert len(ids) == len(members)
    clean = rows_of_games(alone, ids, list(TABLES))
    assert all(clean[t] for t in ("games", "players", "rounds", "events"))
    assert rows_of_games(fuzzed.warehouse, ids, list(TABLES)) == clean


@pytest.mark.slow
@pytest.mark.e2e
def test_every_stored_game_passes_the_invariant_checks(fuzzed: Fuzzed) -> None:
    """``paipu check`` finds nothing in the fuzzed warehouse but what pipeline.invariants lets through (score
    changes of logs not written by a server), and many mutated games are stored."""
    con = connect(fuzzed.warehouse)
    n_games = con.execute("select count(*) from games").fetchone()[0]
    assert n_games > 300, n_games
    failing = [f"{name}: {v.game_id} round {v.round_idx}: {v.detail}" for name, violations in run_checks(con).items()
               for v in violations if v.is_server_log or name not in SERVER_ONLY_CHECKS]  # fmt: skip
    assert not failing, f"{len(failing)} stored games fail a check:\n" + "\n".join(failing[:5])


@pytest.mark.slow
@pytest.mark.e2e
def test_the_run_took_its_time(fuzzed: Fuzzed) -> None:
    """Not a bound, a record: the child ingest's time, printed with -s."""
    print(f"ingest of {len(fuzzed.rows)} entries: {fuzzed.run.get('seconds', 0):.1f} s, "
          f"peak {fuzzed.run.get('max_rss_kib', 0) // 1024} MiB")  # fmt: skip


# --- the bugs the fuzzing found, reduced ---------------------------------------------------------
@pytest.fixture(scope="module")
def xml_log(shared_logs: Path) -> bytes:
    """A real Tenhou XML log, complete."""
    return (shared_logs / "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog").read_bytes()


def read_entries(path: Path, limits: Limits = LIMITS) -> dict[str, bytes | OSError]:
    """Entry name -> bytes read or the OSError raised, of every entry of a file."""
    found: dict[str, bytes | OSError] = {}
    for entry in entries(path, limits):
        assert entry.name not in found, f"{entry.name!r} listed twice"
        try:
            found[entry.name] = entry.read()
        except OSError as exc:
            found[entry.name] = exc
    containers.close_all()
    return found


def test_a_member_named_like_a_repeated_names_suffix_keeps_its_own_entry(tmp_path: Path, xml_log: bytes) -> None:
    """'a', 'a', 'a;2': three entries ('a;2' was once given to the second 'a' and to the third member alike: two
    manifest rows of one path)."""
    path = tmp_path / "dup.zip"
    path.write_bytes(build_zip([Member("a", xml_log), Member("a", b"x"), Member("a;2", b"y")], random.Random(0)))
    assert {name.split(SEPARATOR)[1]: data for name, data in read_entries(path).items()} == {
        "a": xml_log, "a;2": b"x", "a;2;2": b"y"}  # fmt: skip


def test_a_damaged_tar_header_ends_the_listing_with_a_row_saying_so(tmp_path: Path, xml_log: bytes) -> None:
    """A flipped byte in the second header: tarfile ended the archive there without a word, losing the members
    after it; now the tar's own entry says where it stopped."""
    data = bytearray(build_tar([Member("one.mjlog", xml_log), Member("two.mjlog", xml_log)]))
    data[tar_headers(bytes(data))[1] + 150] ^= 0x11
    path = tmp_path / "damaged.tar"
    path.write_bytes(bytes(data))
    found = read_entries(path)
    assert list(found) == [f"{path}{SEPARATOR}one.mjlog", str(path)]
    assert "cannot be read after member 'one.mjlog' (a damaged header at byte" in str(found[str(path)])


def test_a_tar_member_name_that_is_not_utf8_is_written_with_escapes(tmp_path: Path, xml_log: bytes) -> None:
    """A tar header's name bytes that are not UTF-8 (kept by tarfile as surrogate escapes) and control characters
    are written as \\xNN: the manifest could not store the surrogates (an exit 70 of the whole ingest)."""
    data = bytearray(build_tar([Member("n\xe9-x.mjlog", xml_log), Member("line\nbreak.mjlog", b"<mjloggm")]))
    at = data.index("n\xe9".encode())
    data[at : at + 512] = with_checksum(bytearray(data[at : at + 512].replace(b"n\xc3\xa9", b"n\xff\xfe", 1)))
    path = tmp_path / "in" / "names.tar"
    path.parent.mkdir()
    path.write_bytes(bytes(data))
    names = [f"{path}{SEPARATOR}n\\xff\\xfe-x.mjlog", f"{path}{SEPARATOR}line\\x0abreak.mjlog"]
    assert list(read_entries(path)) == names
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([path.parent], warehouse, limits=LIMITS)
    rows = warehouse.read_manifest().to_pylist()
    assert [(r["status"], "\n" in (r["error"] or "")) for r in rows] == [("quarantined", False), ("ok", False)]


def test_a_huge_text_log_is_its_rows_own_problem(tmp_path: Path, xml_log: bytes) -> None:
    """A row whose TEXT log is over the limit is quarantined as too large; the listing (which once read every
    text log whole to size it, and so stopped at that row) goes on to the other rows."""
    path = tmp_path / "huge.db"
    path.write_bytes(build_db(tmp_path, PHOENIX, [("a-huge", "x" * (LIMITS.max_bytes + 1)), ("b-good", xml_log)]))
    found = read_entries(path)
    assert list(found) == [f"{path}{SEPARATOR}logs/a-huge", f"{path}{SEPARATOR}logs/b-good"]
    huge = found[f"{path}{SEPARATOR}logs/a-huge"]
    assert isinstance(huge, containers.OverLimitError) and huge.reason == "too_large", huge
    assert found[f"{path}{SEPARATOR}logs/b-good"] == xml_log


def test_each_row_of_a_repeated_id_is_read_once(tmp_path: Path, xml_log: bytes) -> None:
    """Two rows of one id (a table without a unique id): each is read (the second once read the first's log)."""
    path = tmp_path / "repeated.db"
    path.write_bytes(build_db(tmp_path, "CREATE TABLE logs(id, log)", [("same", b"first"), ("same", xml_log)]))
    assert sorted(read_entries(path).values()) == sorted([b"first", xml_log])  # type: ignore[type-var]


def test_a_bound_passed_is_too_large_not_unreadable(tmp_path: Path, xml_log: bytes) -> None:
    """A member over the size limit, and the tar.gz listing it stops at, say too_large (REASONS: over a bound of
    pipeline.limits), as a plain file's gzip bomb does; they once said unreadable."""
    head = xml_log[: xml_log.index(b"<INIT")]
    inputs = tmp_path / "in"
    inputs.mkdir()
    (inputs / "big.zip").write_bytes(build_zip([Member("big.mjlog", head + b" " * BOMB)], random.Random(0)))
    (inputs / "big.tgz").write_bytes(build_tar([Member("big.mjlog", head + b" " * BOMB), Member("z", xml_log)], "w:gz"))
    (inputs / "big.mjlog").write_bytes(head + b" " * (LIMITS.max_bytes + 1))
    warehouse = Warehouse(tmp_path / "warehouse")
    ingest([inputs], warehouse, limits=LIMITS)
    rows = warehouse.read_manifest().to_pylist()
    reasons = {r["path"].removeprefix(f"{inputs}/"): (r["status"], r["reason"]) for r in rows}
    names = ["big.mjlog", "big.tgz", f"big.tgz{SEPARATOR}big.mjlog", f"big.zip{SEPARATOR}big.mjlog"]
    assert reasons == dict.fromkeys(names, TOO_LARGE)
