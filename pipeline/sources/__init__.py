"""Input formats, one package each, all exposing ``parse(data, source_file) -> list[ParsedGame]``."""
