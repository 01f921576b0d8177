"""``python -m pipeline``: the ``paipu`` command line."""

from pipeline.cli import app

if __name__ == "__main__":
    app()
