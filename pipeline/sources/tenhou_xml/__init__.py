"""Tenhou XML (mjlog) format: ``parse(data, source_file) -> list[ParsedGame]``."""

from pipeline.sources.tenhou_xml.parser import SOURCE, parse

__all__ = ["SOURCE", "parse"]
