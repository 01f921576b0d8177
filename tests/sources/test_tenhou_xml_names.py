"""Player names: Tenhou writes them percent-encoded (UTF-8); the fast decoding equals urllib's unquote."""

from __future__ import annotations

import random
from urllib.parse import unquote

from pipeline.sources.tenhou_xml.state import percent_decoded


def test_percent_decoded_is_unquote_on_escapes_text_and_broken_input() -> None:
    rng = random.Random(20261202)
    samples = ["%E3%81%82%E3%81%84", "NoName", "", "%", "%E3%81", "%zz%41", "a%41b", "%41%4", "%FF%FE"]
    for _ in range(20000):
        if rng.random() < 0.5:  # wholly escaped bytes (valid UTF-8 or not)
            samples.append("".join(f"%{b:02{rng.choice('Xx')}}" for b in rng.randbytes(rng.randint(0, 9))))
        else:
            samples.append("".join(rng.choice("%0123456789abcdefABCDEFxyz") for _ in range(rng.randint(0, 12))))
    for text in samples:
        assert percent_decoded(text) == unquote(text), text
