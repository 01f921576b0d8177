"""The scenario builder writes valid Tenhou XML: well-formed, real call codes, scores that add up, legal play.

``replay`` re-reads every log written here and every file in ``data/sample`` independently of the builder:
tile ids distinct per round, every discard/call/win uses held tiles, ``sc``/``ten`` follow the tracked
scores, scores + 1000 x riichi sticks stay constant over the game, ``owari`` on the last result.
"""

from __future__ import annotations

import gzip
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pipeline.scenario import GameBuilder, ScenarioError, one_round
from pipeline.scenario.simulate import simulate_game

SAMPLE = Path(__file__).resolve().parents[2] / "data" / "sample"
TERMINALS = {0, 8, 9, 17, 18, 26, *range(27, 34)}


# ---- a tiny decoder of Tenhou's N codes, written from the documented bit layout ------------------------
def decode_meld(m: int) -> tuple[str, list[int], int | None]:
    """(kind, tiles, called tile) of an N code."""
    if m & 0x4:
        t = m >> 10
        base = t // 3 // 7 * 9 + t // 3 % 7
        tiles = [(base + i) * 4 + ((m >> (3 + 2 * i)) & 3) for i in range(3)]
        return "chi", tiles, tiles[t % 3]
    if m & 0x18:
        t = m >> 9
        kind, unused = t // 3, (m >> 5) & 3
        tiles = [kind * 4 + c for c in range(4) if c != unused]
        if m & 0x10:
            return "kakan", [*tiles, kind * 4 + unused], tiles[t % 3]
        return "pon", tiles, tiles[t % 3]
    if m & 0x20:
        return "kita", [m >> 8], None
    tile = m >> 8
    return ("daiminkan" if m & 3 else "ankan"), [tile // 4 * 4 + c for c in range(4)], tile if m & 3 else None


def ints(text: str | None) -> list[int]:
    return [int(x) for x in text.split(",")] if text else []


# ---- the replay -------------------------------------------------------------------------------------
def replay(xml_text: str | bytes) -> ET.Element:
    """Re-read a log and assert its invariants; returns the parsed root."""
    root = ET.fromstring(xml_text)
    players = 3 if int(root.find("GO").get("type")) & 0x10 else 4  # type: ignore[union-attr]
    total: int | None = None
    st: dict = {}
    for el in root:
        if el.tag == "INIT":
            st = _start_round(el, players, st.get("scores"))
            const = sum(st["scores"]) + 1000 * st["sticks"]
            assert total is None or const == total, "scores + sticks changed between rounds"
            total = const
        elif st:
            _step(el, st)
    assert sum(st["scores"]) + 1000 * st["sticks"] == total
    ends = [el for el in root if el.tag in ("AGARI", "RYUUKYOKU")]
    assert ends and ends[-1].get("owari"), "the last result carries owari"
    assert not any(el.get("owari") for el in ends[:-1])
    return root


def _start_round(el: ET.Element, players: int, after: list[int] | None) -> dict:
    seed = ints(el.get("seed"))
    scores = [x * 100 for x in ints(el.get("ten"))]
    assert after is None or scores == after, "INIT ten = previous scores + deltas"
    hands = {s: ints(el.get(f"hai{s}")) for s in range(4)}
    assert [len(hands[s]) for s in range(4)] == [13] * players + [0] * (4 - players)
    seen = [t for h in hands.values() for t in h] + [seed[5]]
    assert len(seen) == len(set(seen)), "tile ids distinct in the deal"
    return {
        "scores": scores,
        "sticks": seed[2],
        "hands": {s: set(h) for s, h in hands.items()},
        "seen": set(seen),
        "last": None,
        "ura": set(),
    }


def _new(st: dict, tile: int) -> None:
    assert tile not in st["seen"], f"tile {tile} used twice in a round"
    st["seen"].add(tile)


def _step(el: ET.Element, st: dict) -> None:
    tag, hands = el.tag, st["hands"]
    if tag[0] in "TUVW" and tag[1:].isdigit():
        _new(st, int(tag[1:]))
        hands["TUVW".index(tag[0])].add(int(tag[1:]))
    elif tag[0] in "DEFG" and tag[1:].isdigit():
        seat, tile = "DEFG".index(tag[0]), int(tag[1:])
        assert tile in hands[seat], f"seat {seat} discards {tile} it does not hold"
        hands[seat].remove(tile)
        st["last"] = tile
    elif tag == "N":
        who, (kind, tiles, called) = int(el.get("who")), decode_meld(int(el.get("m")))
        own = {"kakan": tiles[-1:]}.get(kind, [t for t in tiles if t != called])
        if kind in ("chi", "pon", "daiminkan"):
            assert called == st["last"], "a call takes the last discard"
        assert set(own) <= hands[who], f"{kind} with tiles {own} not held by seat {who}"
        hands[who] -= set(own)
    elif tag == "REACH" and el.get("step") == "2":
        st["scores"][int(el.get("who"))] -= 1000
        st["sticks"] += 1
        assert [x * 100 for x in ints(el.get("ten"))] == st["scores"]
    elif tag == "DORA":
        _new(st, int(el.get("hai")))
    elif tag in ("AGARI", "RYUUKYOKU"):
        _result(el, st)


def _result(el: ET.Element, st: dict) -> None:
    sc = ints(el.get("sc"))
    assert [x * 100 for x in sc[0::2]] == st["scores"], "sc starts from the tracked scores"
    if el.tag == "AGARI":
        who, src = int(el.get("who")), int(el.get("fromWho"))
        closed = set(st["hands"][who]) | ({int(el.get("machi"))} if who != src else set())
        assert set(ints(el.get("hai"))) == closed, "AGARI hai = closed hand (+ the ron tile)"
        for t in set(ints(el.get("doraHaiUra"))) - st["ura"]:
            _new(st, t)
            st["ura"].add(t)
        assert ints(el.get("ba"))[1] == st["sticks"]
        st["sticks"] = 0
    else:
        assert ints(el.get("ba"))[1] == st["sticks"]
        for s in range(4):
            if el.get(f"hai{s}") is not None:
                assert set(ints(el.get(f"hai{s}"))) == st["hands"][s]
    st["scores"] = [a + 100 * d for a, d in zip(st["scores"], sc[1::2], strict=True)]


def last_result(xml_text: str) -> ET.Element:
    return [el for el in ET.fromstring(xml_text) if el.tag in ("AGARI", "RYUUKYOKU")][-1]


def deltas(el: ET.Element) -> list[int]:
    return [100 * d for d in ints(el.get("sc"))[1::2]]


NOISE = {0: "147m369p258s1357z", 2: "147m369p258s2467z", 3: "369m147p369s2467z"}
"""Hands far from tenpai, for seats that only pass."""


# ---- well-formed output -----------------------------------------------------------------------------
def test_header_and_round_are_tenhou_shaped() -> None:
    g = GameBuilder(4, 169, names=("A", "B", "蛇", "D"))
    g.round({0: "123m456p789s1122z"}, dora_indicator="7z").run_out()
    text = g.to_xml()
    root = replay(text)
    assert text.startswith('<mjloggm ver="2.3"><SHUFFLE seed=') and text.endswith("/></mjloggm>")
    assert [el.tag for el in root][:5] == ["SHUFFLE", "GO", "UN", "TAIKYOKU", "INIT"]
    assert root.find("GO").attrib == {"type": "169", "lobby": "0"}  # type: ignore[union-attr]
    assert root.find("UN").get("n2") == "%E8%9B%87"  # type: ignore[union-attr]
    init = root.find("INIT").attrib  # type: ignore[union-attr]
    assert init["seed"].startswith("0,0,0,") and init["seed"].endswith(",132")
    assert (init["ten"], init["oya"]) == ("250,250,250,250", "0")


def test_red_fives_and_explicit_ids() -> None:
    _, r = one_round({0: "0m5m55m123p456s111z", 1: [1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15, 20]})
    assert r.hand(0)[:4] == [16, 17, 18, 19] and r.hand_mpsz(0) == "0555m123p456s111z"
    _, r2 = one_round({0: "5555m123p456s111z"}, rule_type=169 | 0x02)
    assert r2.hand(0)[:4] == [16, 17, 18, 19]
    with pytest.raises(ScenarioError, match="red fives are not played"):
        one_round({0: "0m123p456s111z23z"}, rule_type=169 | 0x02)


# ---- illegal actions raise ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ({0: "123m456p789s1122z", 1: [0, 1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15]}, "used twice"),
        ({0: "1111m456p789s112z", 1: "1m23456p789s1234z"}, "no free copy of 1m"),
        ({0: "123m456p789s112z"}, "12 tiles, not 13"),
        ({0: "123m456p789s11z8z"}, "bad honor"),
    ],
)
def test_bad_deals_raise(hands: dict, message: str) -> None:
    with pytest.raises(ScenarioError, match=message):
        one_round(hands)


def test_illegal_actions_raise() -> None:
    _, r = one_round({0: "123m456p789s1122z", 1: "234m456p789s3344z", 2: NOISE[2], 3: NOISE[3]})
    with pytest.raises(ScenarioError, match="turn"):
        r.draw(1)
    r.draw(0, "9m")
    with pytest.raises(ScenarioError, match="holds no 5z"):
        r.discard(0, "5z")
    with pytest.raises(ScenarioError, match="not tenpai"):
        r.riichi(0, "1z")
    with pytest.raises(ScenarioError, match="not complete"):
        r.tsumo(0)
    r.discard(0, "9m")
    with pytest.raises(ScenarioError, match="cannot chi"):
        r.chi(2, "78m")
    with pytest.raises(ScenarioError, match="discard it does not hold|cannot act now"):
        r.discard(1, "3z")


def test_furiten_and_no_yaku_block_a_ron() -> None:
    _, r = one_round({0: "123m456p789s1133z", 1: "234m456p789s5566z", 2: NOISE[2], 3: NOISE[3]})
    r.step(0, "9m")
    r.step(1, "8p")
    r.step(2, "3z")  # seat 0 waits on 1z/3z: passing 3z makes it furiten until its next discard
    r.draw(3, "1z")
    r.discard(3, "1z")
    assert r.is_furiten(0) and r.can_ron(0) is None
    with pytest.raises(ScenarioError, match="furiten"):
        r.ron(0, 3)
    r.step(0, "9s")
    assert not r.is_furiten(0)
    r.step(1, "7p")
    r.step(2, "7m")
    r.draw(3, "3z")
    r.discard(3, "3z")
    with pytest.raises(ScenarioError, match="no yaku"):
        r.ron(0, 3)  # 3z is no yakuhai for seat 0 in the East round
    r.ron(0, 3, fu=40, han=1, yaku=[(14, 1)])  # forced values are written as given


# ---- call codes ---------------------------------------------------------------------------------------
def test_every_call_code_round_trips() -> None:
    g, r = one_round(
        {0: "29m456p789s11777z", 1: "13m456s22233345z", 2: "1589m19p19s12345z", 3: "234m567p2334s666z"},
        dora_indicator="1p",
    )
    r.draw(0, "8m")
    r.discard(0, "2m")
    melds = [r.chi(1, "13m")]
    r.discard(1, "5z")
    r.draw(2, "6z")
    r.discard(2, "6z")
    melds.append(r.daiminkan(3, 2))
    r.draw(3, "5s")
    r.dora("2p")
    r.discard(3, "5s")
    r.draw(0, "7z")
    melds.append(r.ankan(0))
    r.dora("3p")
    r.step(0, "9p")
    r.step(1, "3s")
    pon = r.pon(3, 1)
    codes = [(m.kind, m.tiles, m.called, m.code) for m in [*melds, pon]]
    r.discard(3, "2s")
    for seat, tile in ((0, "1p"), (1, "1s"), (2, "9s")):
        r.step(seat, tile)
    r.draw(3, "3s")
    kakan = r.kakan(3)
    codes.append((kakan.kind, kakan.tiles, kakan.called, kakan.code))
    r.draw(3, "6s")
    r.dora("4p")
    r.discard(3, "6s")
    for kind, tiles, called, code in codes:
        assert decode_meld(code) == (kind, sorted(tiles), called)
    assert [c[0] for c in codes] == ["chi", "daiminkan", "ankan", "pon", "kakan"]
    assert codes[0][3] & 3 == 3 and codes[1][3] & 3 == (2 - 3) % 4 and codes[3][3] & 3 == (1 - 3) % 4
    r.run_out()
    replay(g.to_xml())


def test_kita_in_sanma() -> None:
    g, r = one_round({0: "19m19p19s12344z55z"}, players=3)
    r.draw(0, "7z")
    meld = r.kita(0)
    assert decode_meld(meld.code) == ("kita", [meld.tiles[0]], None) and meld.tiles[0] // 4 == 30
    r.draw(0)
    r.discard(0)
    r.run_out()
    text = g.to_xml()
    root = replay(text)
    init = root.find("INIT")
    assert init.get("hai3") == "" and init.get("ten").endswith(",0")  # type: ignore[union-attr]


# ---- scores ---------------------------------------------------------------------------------------------
def test_ron_pays_honba_and_sticks() -> None:
    g, r = one_round({**NOISE, 1: "234m345p456s678s5p"}, honba=2, sticks=1, dora_indicator="1z")
    r.step(0, "9m")
    r.step(1, "9p")
    r.draw(2, "5p")
    r.discard(2, "5p")
    value = r.ron(1, 2)
    assert (value.fu, value.han, value.yaku) == (30, 2, [(7, 1), (8, 1)])  # 34p+55p: pinfu beats tanki
    el = last_result(g.to_xml())
    assert el.get("ten") == "30,2000,0" and el.get("ba") == "2,1"
    assert deltas(el) == [0, 2000 + 600 + 1000, -2600, 0]
    replay(g.to_xml())


def test_riichi_ippatsu_tsumo_by_the_dealer() -> None:
    g, r = one_round(
        {**NOISE, 0: "123m456p789s111z4z", 1: "147m369p258s2567z"}, dora_indicator="9p", ura_indicators="8p"
    )
    r.step(0, "9m")  # a first discard, so the riichi below is not a double riichi
    for seat, tile in ((1, "6m"), (2, "3s"), (3, "8m")):
        r.step(seat, tile)
    r.draw(0, "9m")
    r.riichi(0)
    for seat, tile in ((1, "5m"), (2, "5s"), (3, "6p")):
        r.step(seat, tile)
    assert r.scores[0] == 24000 and r.sticks == 1
    r.draw(0, "4z")
    value = r.tsumo(0)
    el = last_result(g.to_xml())
    assert value.yaku == [(1, 1), (2, 1), (0, 1), (10, 1), (14, 1), (53, 0)]
    assert el.get("yaku") == "1,1,2,1,0,1,10,1,14,1,53,0" and el.get("ten") == "40,12000,1"
    assert deltas(el) == [13000, -4000, -4000, -4000]
    text = g.to_xml()
    assert '<REACH who="0" step="1"/><D' in text and '<REACH who="0" ten="240,250,250,250" step="2"/>' in text
    replay(text)


def test_double_ron_gives_honba_and_sticks_to_the_nearest_winner() -> None:
    g, r = one_round(
        {0: "147m258p369s1357z", 1: "234m345p456s678s6p", 2: "19m19p19s12345z77z", 3: "234m567m66p33s678s"},
        honba=1,
        sticks=1,
    )
    r.draw(0, "6p")
    r.discard(0, "6p")
    with pytest.raises(ScenarioError, match="turn order"):
        r.ron(3, 0)
        r.ron(1, 0)
    r2 = g.rounds[-1]
    assert r2.winners == [3]  # the first call went through; start again in a fresh game
    g, r = one_round(
        {0: "147m258p369s1357z", 1: "234m345p456s678s6p", 2: "19m19p19s12345z77z", 3: "234m567m66p33s678s"},
        honba=1,
        sticks=1,
    )
    r.draw(0, "6p")
    r.discard(0, "6p")
    r.ron(1, 0)
    r.ron(3, 0)
    first, second = [el for el in ET.fromstring(g.to_xml()) if el.tag == "AGARI"]
    assert (first.get("ba"), second.get("ba")) == ("1,1", "1,0")
    assert deltas(first) == [-1600, 2600, 0, 0] and deltas(second) == [-1300, 0, 0, 1300]
    assert second.get("owari") and not first.get("owari")
    replay(g.to_xml())


def test_chankan_robs_the_added_kan() -> None:
    g, r = one_round({0: "55m147p258s13567z", 1: "34m45699p234789s", 2: NOISE[2], 3: NOISE[3]}, dora_indicator="1z")
    for seat, tile in ((0, "9m"), (1, "1s"), (2, "8p")):
        r.step(seat, tile)
    r.draw(3, "5m")
    r.discard(3, "5m")
    r.pon(0, 3)
    r.discard(0, "1z")
    for seat, tile in ((1, "2p"), (2, "7s"), (3, "1p")):
        r.step(seat, tile)
    r.draw(0, "0m")
    kakan = r.kakan(0)
    assert r.can_ron(1) is not None
    value = r.ron(1, 0)
    assert value.yaku == [(3, 1), (7, 1), (54, 1)]  # chankan, pinfu, the robbed red five
    el = last_result(g.to_xml())
    assert el.get("machi") == "16" and el.get("fromWho") == "0" and decode_meld(kakan.code)[0] == "kakan"
    assert deltas(el) == [-3900, 3900, 0, 0]
    replay(g.to_xml())


def test_sanma_tsumo_is_paid_by_two_players() -> None:
    g, r = one_round({0: "19m1289p19s23467z", 1: "123p456p789s111z5z", 2: "9m2378p2378s2367z"}, players=3)
    r.step(0, "9m")
    r.draw(1, "5z")
    assert r.can_tsumo(1).yakuman == [38]  # type: ignore[union-attr]  # chiihou on the first draw
    r.discard(1)
    r.step(2, "3s")
    r.step(0, "1p")
    r.draw(1, "5z")
    value = r.tsumo(1)
    assert (value.fu, value.han, value.yaku) == (40, 2, [(0, 1), (14, 1)])
    el = last_result(g.to_xml())
    assert el.get("ten") == "40,2000,0" and deltas(el) == [-1300, 2000, -700, 0]
    with pytest.raises(ScenarioError):
        r.abort("nm")
    replay(g.to_xml())


@pytest.mark.parametrize(
    ("tenpai_hands", "expected"),
    [
        ({0: "123m456p789s111z4z"}, [3000, -1000, -1000, -1000]),
        ({0: "123m456p789s111z4z", 2: "123p456s789m222z5z"}, [1500, -1500, 1500, -1500]),
        (
            {0: "123m456p789s111z4z", 1: "123p456s789m222z5z", 3: "123s456m789p333z6z"},
            [1000, 1000, -3000, 1000],
        ),
    ],
)
def test_noten_payments(tenpai_hands: dict, expected: list[int]) -> None:
    noise = {1: "258m258p258s1357z", 2: "369m369p369s2467z", 3: "147m147p147s3456z"}
    g, r = one_round({**noise, **tenpai_hands})
    tenpai = r.run_out()
    assert tenpai == sorted(tenpai_hands)
    el = last_result(g.to_xml())
    assert el.get("type") is None and deltas(el) == expected
    assert [el.get(f"hai{s}") is not None for s in range(4)] == [s in tenpai_hands for s in range(4)]
    start = g.next_round()
    assert start is not None and (start.kyoku, start.honba) == (0, 1)  # dealer tenpai: renchan
    replay(g.to_xml())


def test_nagashi_mangan() -> None:
    simples = [t for t in range(136) if t // 4 not in TERMINALS]
    honors = [t for t in range(136) if t // 4 in TERMINALS]
    hands = {0: simples[:13], 1: honors[:13], 2: honors[13:26], 3: honors[26:33] + simples[13:19]}
    wall = [honors[33 + i // 4] if i % 4 == 0 else simples[19 + i - i // 4 - 1] for i in range(70)]
    g, r = one_round(hands, dora_indicator=honors[-1], wall=wall)
    r.run_out()
    el = last_result(g.to_xml())
    assert el.get("type") == "nm" and deltas(el) == [12000, -4000, -4000, -4000]
    replay(g.to_xml())


def test_abortive_draws_pay_nothing() -> None:
    g, r = one_round({0: "19m19p19s1234z567m"})
    r.draw(0, "7z")
    r.abort("yao9")
    el = last_result(g.to_xml())
    assert el.get("type") == "yao9" and deltas(el) == [0, 0, 0, 0] and len(ints(el.get("hai0"))) == 14
    r = g.round({0: "23m456p789s22z234s", 1: "23p456s789m33z234m", 2: "23s456m789p55z234p", 3: "567m567p567s66z88m"})
    assert (r.kyoku, r.honba) == (0, 1)
    for seat in range(4):
        r.draw(seat, "1z")
        r.discard(seat, "1z")
    with pytest.raises(ScenarioError):
        r.abort("kan4")
    r.abort("kaze4")
    assert g.next_round() is not None and g.next_round().honba == 2  # type: ignore[union-attr]
    replay(g.to_xml())


def test_four_riichi_abort_keeps_the_sticks() -> None:
    g, r = one_round(
        {0: "123m456p789s111z4z", 1: "123p456s789m222z5z", 2: "123s456m789p333z6z", 3: "234m567p345s444z7z"}
    )
    for seat, tile in ((0, "9m"), (1, "9p"), (2, "9s"), (3, "8m")):
        r.draw(seat, tile)
        r.riichi(seat)
    assert r.abort_due() == "reach4"
    r.abort("reach4")
    el = last_result(g.to_xml())
    assert el.get("ba") == "0,4" and deltas(el) == [0, 0, 0, 0]
    assert all(len(ints(el.get(f"hai{s}"))) == 13 for s in range(4))
    start = g.next_round()
    assert start is not None and (start.honba, start.sticks, start.scores) == (1, 4, (24000,) * 4)
    replay(g.to_xml())


def test_triple_ron_aborts() -> None:
    g, r = one_round(
        {
            0: NOISE[0].replace("5", "6"),
            1: "234m345p456s678s5z",
            2: "234p345s456m678m5z",
            3: "234s345m456p678p5z",
        }
    )
    r.draw(0, "5z")
    r.discard(0, "5z")
    r.abort("ron3", [1, 2, 3])
    el = last_result(g.to_xml())
    assert el.get("type") == "ron3" and [el.get(f"hai{s}") is None for s in range(4)] == [
        True,
        False,
        False,
        False,
    ]
    replay(g.to_xml())


def test_owari_and_rotation() -> None:
    g, r = one_round({**NOISE, 1: "234m345p456s678s5p"})
    r.step(0, "9m")
    r.step(1, "9p")
    r.draw(2, "5p")
    r.discard(2, "5p")
    r.ron(1, 2)
    start = g.next_round()
    assert start is not None and (start.kyoku, start.honba, start.sticks) == (1, 0, 0)
    r = g.round()
    assert r.dealer == 1 and r.scores[:4] == [25000, 27000, 23000, 25000]
    r.run_out()
    owari = ints(last_result(g.to_xml()).get("owari").replace(".0", ""))  # type: ignore[union-attr]
    assert sum(owari[1::2]) == 0 and sum(owari[0::2]) * 100 == 100000
    with pytest.raises(ScenarioError, match="do not follow"):
        g.round(scores=(25000,) * 4)
    replay(g.to_xml())


# ---- the simulator and the bundled sample ---------------------------------------------------------------
@pytest.mark.parametrize(("seed", "players"), [(1, 4), (2, 4), (3, 3)])
def test_simulated_games_replay_and_are_deterministic(seed: int, players: int) -> None:
    text = simulate_game(seed, players)
    assert text == simulate_game(seed, players)
    root = replay(text)
    assert int(root.find("GO").get("type")) == (161 if players == 4 else 177)  # type: ignore[union-attr]


SAMPLE_FILES = sorted(SAMPLE.glob("*.mjlog"))


def test_sample_is_there() -> None:
    assert len(SAMPLE_FILES) >= 20 and (SAMPLE / "README.md").is_file()
    assert sum(p.stat().st_size for p in SAMPLE.iterdir()) < 600 * 1024


@pytest.mark.parametrize("path", SAMPLE_FILES, ids=[p.name for p in SAMPLE_FILES])
def test_sample_file_parses_and_replays(path: Path) -> None:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    root = replay(data)
    assert root.tag == "mjloggm" and root.get("ver") == "2.3"
