"""``python -m euchrelog``."""

from .cli import run

run()
