"""Input formats, one package each, all exposing ``parse(data, source_file) -> list[ParsedGame]``."""

FORMATS = ("tenhou_xml", "tenhou_json", "mjai", "majsoul")
"""Every input format's name: its package here (pipeline.sources.<name>) and its parser's SOURCE. A package's
parser is imported when first used (pipeline.ingest.reading.PARSERS), so naming the formats costs nothing."""
