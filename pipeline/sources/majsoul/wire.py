"""Mahjong Soul's binary record form: a small protobuf wire-format reader, no protobuf package needed.

The fields read are those of the schema (liqi.json, MahjongRepository/mahjong_soul_api) that paipu uses (the
records, and the record response with its head), copied below by field number; every other field is skipped.
Messages come out as dicts in the JSON form (proto field names, defaults omitted), so the binary and JSON forms
share one reader.
"""

from __future__ import annotations

from typing import Any

from pipeline.errors import ParseError

FieldSpec = tuple[str, str, bool]
"""(name, type, repeated): type is a scalar type name or a message name of ``SCHEMA``."""

SCHEMA: dict[str, dict[int, FieldSpec]] = {
    "Wrapper": {1: ("name", "string", False), 2: ("data", "bytes", False)},
    "GameDetailRecords": {1: ("records", "bytes", True), 2: ("version", "uint32", False),
                          3: ("actions", "GameAction", True)},
    "GameAction": {1: ("passed", "uint32", False), 2: ("type", "uint32", False), 3: ("result", "bytes", False)},
    "RecordNewRound": {1: ("chang", "uint32", False), 2: ("ju", "uint32", False), 3: ("ben", "uint32", False),
                       4: ("dora", "string", False), 5: ("scores", "int32", True), 6: ("liqibang", "uint32", False),
                       7: ("tiles0", "string", True), 8: ("tiles1", "string", True), 9: ("tiles2", "string", True),
                       10: ("tiles3", "string", True), 11: ("tingpai", "TingPai", True), 13: ("md5", "string", False),
                       14: ("paishan", "string", False), 15: ("left_tile_count", "uint32", False),
                       16: ("doras", "string", True)},
    "TingPai": {1: ("seat", "uint32", False), 2: ("tingpais1", "TingPaiInfo", True)},
    "TingPaiInfo": {1: ("tile", "string", False), 2: ("haveyi", "bool", False), 3: ("yiman", "bool", False),
                    4: ("count", "uint32", False), 5: ("fu", "uint32", False)},
    "RecordDealTile": {1: ("seat", "uint32", False), 2: ("tile", "string", False),
                       3: ("left_tile_count", "uint32", False), 5: ("liqi", "LiQiSuccess", False),
                       6: ("doras", "string", True), 7: ("zhenting", "bool", True)},
    "LiQiSuccess": {1: ("seat", "uint32", False), 2: ("score", "int32", False), 3: ("liqibang", "uint32", False),
                    4: ("failed", "bool", False)},
    "RecordDiscardTile": {1: ("seat", "uint32", False), 2: ("tile", "string", False), 3: ("is_liqi", "bool", False),
                          5: ("moqie", "bool", False), 6: ("zhenting", "bool", True),
                          7: ("tingpais", "TingPaiInfo", True), 8: ("doras", "string", True),
                          9: ("is_wliqi", "bool", False)},
    "RecordChiPengGang": {1: ("seat", "uint32", False), 2: ("type", "uint32", False), 3: ("tiles", "string", True),
                          4: ("froms", "uint32", True), 5: ("liqi", "LiQiSuccess", False),
                          7: ("zhenting", "bool", True), 11: ("scores", "int32", True),
                          12: ("liqibang", "uint32", False)},
    "RecordAnGangAddGang": {1: ("seat", "uint32", False), 2: ("type", "uint32", False), 3: ("tiles", "string", False),
                            6: ("doras", "string", True)},
    "RecordBaBei": {1: ("seat", "uint32", False), 6: ("doras", "string", True), 8: ("moqie", "bool", False)},
    "RecordHule": {1: ("hules", "HuleInfo", True), 2: ("old_scores", "int32", True),
                   3: ("delta_scores", "int32", True), 5: ("scores", "int32", True), 6: ("gameend", "GameEnd", False),
                   7: ("doras", "string", True), 9: ("baopai", "int32", False)},
    "HuleInfo": {1: ("hand", "string", True), 2: ("ming", "string", True), 3: ("hu_tile", "string", False),
                 4: ("seat", "uint32", False), 5: ("zimo", "bool", False), 6: ("qinjia", "bool", False),
                 7: ("liqi", "bool", False), 8: ("doras", "string", True), 9: ("li_doras", "string", True),
                 10: ("yiman", "bool", False), 11: ("count", "uint32", False), 12: ("fans", "FanInfo", True),
                 13: ("fu", "uint32", False), 15: ("point_rong", "uint32", False),
                 16: ("point_zimo_qin", "uint32", False), 17: ("point_zimo_xian", "uint32", False),
                 19: ("point_sum", "uint32", False), 21: ("baopai", "uint32", False),
                 22: ("baopai_seats", "uint32", True)},
    "FanInfo": {1: ("name", "string", False), 2: ("val", "uint32", False), 3: ("id", "uint32", False)},
    "GameEnd": {1: ("scores", "int32", True)},
    "RecordNoTile": {1: ("liujumanguan", "bool", False), 2: ("players", "NoTilePlayerInfo", True),
                     3: ("scores", "NoTileScoreInfo", True), 4: ("gameend", "bool", False)},
    "NoTilePlayerInfo": {3: ("tingpai", "bool", False), 4: ("hand", "string", True), 5: ("tings", "TingPaiInfo", True),
                         6: ("already_hule", "bool", False)},
    "NoTileScoreInfo": {1: ("seat", "uint32", False), 2: ("old_scores", "int32", True),
                        3: ("delta_scores", "int32", True), 4: ("hand", "string", True), 5: ("ming", "string", True),
                        6: ("doras", "string", True), 7: ("score", "uint32", False)},
    "RecordLiuJu": {1: ("type", "uint32", False), 2: ("gameend", "GameEnd", False), 3: ("seat", "uint32", False),
                    4: ("tiles", "string", True), 5: ("liqi", "LiQiSuccess", False),
                    6: ("allplayertiles", "string", True)},
    # the record response (Lobby.fetchGameRecord) and its head
    "ResGameRecord": {1: ("error", "Error", False), 3: ("head", "RecordGame", False), 4: ("data", "bytes", False),
                      5: ("data_url", "string", False)},
    "Error": {1: ("code", "uint32", False)},
    "RecordGame": {1: ("uuid", "string", False), 2: ("start_time", "uint32", False), 3: ("end_time", "uint32", False),
                   5: ("config", "GameConfig", False), 11: ("accounts", "AccountInfo", True),
                   12: ("result", "GameEndResult", False), 13: ("robots", "AccountInfo", True)},
    "GameConfig": {1: ("category", "uint32", False), 2: ("mode", "GameMode", False),
                   3: ("meta", "GameMetaData", False)},
    "GameMode": {1: ("mode", "uint32", False), 6: ("detail_rule", "GameDetailRule", False)},
    "GameDetailRule": {3: ("dora_count", "uint32", False), 4: ("shiduan", "uint32", False),
                       14: ("have_liujumanguan", "bool", False), 15: ("have_qieshangmanguan", "bool", False),
                       25: ("have_sanjiahele", "bool", False), 62: ("disable_double_yakuman", "uint32", False)},
    "GameMetaData": {1: ("room_id", "uint32", False), 2: ("mode_id", "uint32", False),
                     3: ("contest_uid", "uint32", False)},
    "AccountInfo": {1: ("account_id", "uint32", False), 2: ("seat", "uint32", False), 3: ("nickname", "string", False),
                    7: ("level", "AccountLevel", False), 8: ("level3", "AccountLevel", False)},
    "AccountLevel": {1: ("id", "uint32", False), 2: ("score", "uint32", False)},
    "GameEndResult": {1: ("players", "PlayerItem", True)},
    "PlayerItem": {1: ("seat", "uint32", False), 2: ("total_point", "int32", False),
                   3: ("part_point_1", "int32", False)},
}  # fmt: skip
"""Message -> field number -> (name, type, repeated), from liqi.json (only the fields paipu reads)."""

VARINT_TYPES = frozenset({"uint32", "int32", "bool"})
"""Scalar types written as varints (wire type 0; packed in wire type 2 when repeated)."""


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """Read a varint at ``pos``; return (value, next position)."""
    value, shift = 0, 0
    while True:
        if pos >= len(data) or shift > 63:
            raise ParseError("truncated or overlong varint in protobuf data")
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos += 1
        if byte < 0x80:
            return value, pos
        shift += 7


def _scalar(type_: str, value: int) -> int | bool:
    """A varint as its declared type (int32: two's complement over 64 bits)."""
    if type_ == "bool":
        return bool(value)
    if type_ == "int32" and value >= 1 << 63:
        return value - (1 << 64)
    return value


def _packed(type_: str, raw: bytes) -> list[Any]:
    """The values of a packed run of varints (a repeated varint field in wire type 2)."""
    values, pos, end = [], 0, len(raw)
    while pos < end:
        byte = raw[pos]
        if byte < 0x80:  # a one-byte varint (most are), read without a call
            value, pos = byte, pos + 1
        else:
            value, pos = _varint(raw, pos)
        values.append(_scalar(type_, value))
    return values


def _value(type_: str, wire: int, raw: int | bytes) -> list[Any]:
    """The values one field occurrence holds (several for a packed repeated varint)."""
    if type_ in VARINT_TYPES:
        if wire == 0:
            return [_scalar(type_, raw)]
        if wire == 2 and isinstance(raw, bytes):
            return _packed(type_, raw)
    elif wire == 2 and isinstance(raw, bytes):
        if type_ == "string":
            try:
                return [raw.decode("utf-8")]
            except UnicodeDecodeError:
                raise ParseError("a protobuf string field is not UTF-8") from None
        return [raw if type_ == "bytes" else decode(type_, raw)]
    raise ParseError(f"protobuf field of type {type_} has wire type {wire}")


def decode(message: str, data: bytes) -> dict[str, Any]:
    """Decode protobuf bytes as ``message`` (a name of ``SCHEMA``) into a dict of the JSON form.

    Unknown fields are skipped; absent fields are absent (their defaults). Raises ParseError for
    malformed bytes or a field whose wire type does not match the schema. (One-byte varints and plain scalar
    fields are read inline: a record is hundreds of fields.)"""
    spec = SCHEMA[message]
    out: dict[str, Any] = {}
    pos, end = 0, len(data)
    while pos < end:
        key = data[pos]
        if key < 0x80:
            pos += 1
        else:
            key, pos = _varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0 or wire == 2:  # noqa: PLR1714 - the two common wire types, tested first
            if pos < end and data[pos] < 0x80:
                head, pos = data[pos], pos + 1
            else:
                head, pos = _varint(data, pos)
            if wire == 0:
                raw: int | bytes = head
            elif pos + head > end:
                raise ParseError("truncated length-delimited field in protobuf data")
            else:
                raw, pos = data[pos : pos + head], pos + head
        elif wire == 1 or wire == 5:  # noqa: PLR1714
            stop = pos + (8 if wire == 1 else 4)
            if stop > end:
                raise ParseError("truncated fixed-size field in protobuf data")
            raw, pos = data[pos:stop], stop
        else:
            raise ParseError(f"unsupported protobuf wire type {wire}")
        field = spec.get(number)
        if field is None:
            continue
        name, type_, repeated = field
        if wire == 0 and type_ in VARINT_TYPES:  # a plain scalar, the most common field
            value = _scalar(type_, raw)  # type: ignore[arg-type]
            if repeated:
                out.setdefault(name, []).append(value)
            else:
                out[name] = value
            continue
        values = _value(type_, wire, raw)
        if repeated:
            out.setdefault(name, []).extend(values)
        elif values:
            out[name] = values[-1]
        else:  # an empty packed run where one value is due
            raise ParseError(f"protobuf field {name} of type {type_} holds no value")
    return out
