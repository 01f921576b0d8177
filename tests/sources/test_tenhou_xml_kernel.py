"""The compiled tokenizer of Tenhou XML (pipeline/sources/tenhou_xml/kernel.py) and the parse built on it.

The unit tests pin the tokenization of tricky markup down, and the parse of a real game whatever its layout.
That the parse gives, for every XML file of ../shared/logs and a few thousand mutants of them, exactly the tables
(or the error) the parser gave before the kernels is shown by hand with benchmarks/xml_golden.py (a golden set
made with the old parser, outside the repository) and benchmarks/golden.py (every table of the warehouse).
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from pipeline.errors import ParseError
from pipeline.schema import to_arrow
from pipeline.sources import tenhou_xml
from pipeline.sources.base import concat_buffers
from pipeline.sources.tenhou_xml.kernel import (
    BAD_TILE,
    DORA_HOT,
    N_HOT,
    NAMED,
    NAMES,
    OTHER,
    REACH_HOT,
    SKIP,
    decode_meld_code,
    tokenize,
)
from pipeline.sources.tenhou_xml.melds import decode_meld

MJX_GAME = "tenhou-xml/mjx/tests_py/resources/mjlog/2020052700gm-00a9-0000-75a4695c.mjlog"
SANMA = "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml"
OLD_2009 = ("corpus/tenhou-xml/thewaxmango-mahjong-hands/log-libraries/phoenix-logs/logs/"
            "2009030822gm-00b9-0000-d5882500.txt")  # fmt: skip
HEAD = b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
INIT = (b'<INIT seed="0,0,0,0,5,37" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
        b'hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,34,35,36,37,38" '
        b'hai3="39,40,41,42,43,44,45,46,47,48,49,50,51"/>')  # fmt: skip


def kinds_of(document: bytes) -> list[tuple[int, int, int]]:
    """(kind, a, b) of every element of a document."""
    _, _, kinds, a, b, markup, _ = tokenize(np.frombuffer(document, dtype=np.uint8))
    assert markup < 0
    return list(zip(kinds.tolist(), a.tolist(), b.tolist(), strict=True))


def named(tag: str) -> int:
    """The kind code of a tag read in Python."""
    return NAMED + NAMES.index(tag)


def parse_text(document: bytes, name: str = "2020052700gm-00a9-0000-75a4695c.mjlog"):
    """Parse a document's bytes into its one game."""
    (game,) = tenhou_xml.parse(document, name)
    return game


def forms(game) -> dict[str, pa.Table]:
    """A game's tables as the warehouse stores them (declared Arrow types), to compare."""
    return {table: to_arrow(table, concat_buffers([game], table)) for table in game.tables}


# --- tokenization ----------------------------------------------------------------------------
def test_tiles_and_hot_elements_come_back_as_integers() -> None:
    document = HEAD + b'<T12/><U0/><V135/><W7/><D12/><E1/><F99/><G3/><N who="1" m="4175"/>' \
        b'<REACH who="2" step="1"/><REACH who="2" ten="250,250,240,250" step="2"/><DORA hai="5"/></mjloggm>'
    assert kinds_of(document)[2:] == [
        (0, 12, 0), (1, 0, 0), (2, 135, 0), (3, 7, 0), (4, 12, 0), (5, 1, 0), (6, 99, 0), (7, 3, 0),
        (N_HOT, 1, 4175), (REACH_HOT, 2, 1), (REACH_HOT, 2, 2), (DORA_HOT, 5, 0), (SKIP, 0, 0),
    ]  # fmt: skip
    assert [k for k, _, _ in kinds_of(document)[:2]] == [named("mjloggm"), named("GO")]


def test_attributes_in_another_order_are_read_in_python() -> None:
    document = HEAD + b'<N m="4175" who="1"/><REACH step="1" who="2"/><DORA  hai="5" x="1"/>'
    assert [k for k, _, _ in kinds_of(document)[2:]] == [named("N"), named("REACH"), named("DORA")]


def test_spaces_and_self_closing_or_not() -> None:
    document = HEAD + b'<T12 /><N  who="1"\tm="4175" /><N who="1" m="4175"></N><DORA hai="5">\n</DORA>'
    assert kinds_of(document)[2:] == [(0, 12, 0), (N_HOT, 1, 4175), (N_HOT, 1, 4175), (SKIP, 0, 0),
                                      (DORA_HOT, 5, 0), (SKIP, 0, 0)]  # fmt: skip


def test_unknown_and_odd_names_are_left_to_python() -> None:
    document = HEAD + b'<FOO/><Nx who="1" m="2"/><N\xc3\xa9 who="1"/><!-- c --><?pi?><T1234/>'
    kinds = [k for k, _, _ in kinds_of(document)[2:]]
    assert kinds == [OTHER, OTHER, OTHER, SKIP, SKIP, BAD_TILE]


def test_a_document_cut_mid_element_drops_it() -> None:
    starts, ends, kinds, _, _, markup, is_cut = tokenize(np.frombuffer(HEAD + b"<T12/><D1", dtype=np.uint8))
    assert is_cut and markup < 0 and len(kinds) == 3 and kinds[-1] == 0


def test_a_lt_inside_an_element_is_named_by_its_offset() -> None:
    document = HEAD + b'<T12 <D1/>'
    *_, markup, _ = tokenize(np.frombuffer(document, dtype=np.uint8))
    assert markup == len(HEAD) + 5
    with pytest.raises(ParseError, match=f"'<' inside an element at byte {len(HEAD) + 5}"):
        parse_text(document + b"</mjloggm>")


def test_a_malformed_draw_names_its_tag() -> None:
    with pytest.raises(ParseError, match="malformed draw/discard element") as info:
        parse_text(HEAD + INIT + b"<T1234/></mjloggm>")
    assert info.value.tag == "T1234"


@pytest.mark.parametrize(
    ("element", "message", "tag"),
    [
        (b'<N who="1" m="4175"/>' + INIT, "call outside a round", "N"),
        (INIT + b'<REACH who="1" step="3"/>', "unknown REACH step 3", "REACH"),
        (INIT + b'<DORA hai="136"/>', "tile id out of range in '136'", "DORA"),
        (INIT + b'<N who="1" m="65536"/>', "call code 65536 out of range", "N"),
    ],
)
def test_a_hot_element_that_fails_its_checks_raises_its_handlers_error(element: bytes, message: str, tag: str) -> None:
    with pytest.raises(ParseError, match=re.escape(message)) as info:
        parse_text(HEAD + element + b"</mjloggm>")
    assert info.value.tag == tag and "2020052700gm-00a9-0000-75a4695c.mjlog" in str(info.value)


def test_the_kernel_decodes_every_call_code_as_decode_meld() -> None:
    tiles = np.zeros(4, dtype=np.int64)
    slots = ("chi", "pon", "daiminkan", "kakan", "ankan", "kita")
    for code in [*range(1 << 16), -1, 1 << 16]:
        slot, tile, rel, size = decode_meld_code(code, tiles)
        try:
            meld = decode_meld(code)
        except ParseError:
            assert slot == -1, code
            continue
        assert (slots[slot - 2], tile, tuple(tiles[:size].tolist()), rel) == meld, code


# --- real games in other shapes --------------------------------------------------------------
def test_reordered_attributes_and_gzip_parse_like_the_original(shared_logs: Path) -> None:
    data = (shared_logs / MJX_GAME).read_bytes()
    original = forms(parse_text(data))
    reordered = re.sub(rb'<N who="(\d+)" m="(\d+)"', rb'<N m="\2"  who="\1"', data)
    reordered = re.sub(rb'<REACH who="(\d+)" (ten="[\d,]*" )?step="(\d+)"', rb'<REACH step="\3" who="\1"', reordered)
    assert reordered != data
    assert forms(parse_text(reordered)) == original
    assert forms(parse_text(gzip.compress(data))) == original


def test_percent_encoded_names_and_the_2009_format(shared_logs: Path) -> None:
    game = parse_text((shared_logs / OLD_2009).read_bytes(), OLD_2009)
    assert game.tables["players"]["name"][0] == "＼(＾o＾)／★"
    assert game.tables["games"]["lobby"] == [0] and game.n_rounds > 0  # GO without a lobby: the log id's


def test_sanma_seats_are_checked_against_three_players(shared_logs: Path) -> None:
    data = (shared_logs / SANMA).read_bytes()
    assert parse_text(data, SANMA).tables["games"]["n_players"] == [3]
    bad = re.sub(rb'<N who="\d+"', b'<N who="3"', data, count=1)
    with pytest.raises(ParseError, match="who=3 is not a seat of a 3-player game"):
        parse_text(bad, SANMA)
