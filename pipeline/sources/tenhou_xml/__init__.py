"""Tenhou XML (mjlog) format: ``parse(data, source_file) -> list[ParsedGame]``."""

from pipeline import lazy_exports

__all__ = ["SOURCE", "parse"]

# the parser (and its compiled core) is imported when first used: detecting a format reads the head only
__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "SOURCE": "pipeline.sources.tenhou_xml.parser",
        "parse": "pipeline.sources.tenhou_xml.parser",
    },
)
