"""A real browser for the pages' tests: Debian's Chromium (``/usr/bin/chromium``) driven
by Playwright, headless, with the launch flags the suite uses everywhere."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@contextmanager
def launched_browser() -> Iterator[Any]:
    """A headless Chromium, closed after the block; the test skips when Chromium or
    Playwright is absent."""
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed at /usr/bin/chromium (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield launched
        finally:
            launched.close()


@contextmanager
def chromium_page() -> Iterator[tuple[Any, list[str]]]:
    """A new page of a headless Chromium, and the script errors it reports; the test
    skips when Chromium or Playwright is absent."""
    with launched_browser() as browser:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page, errors
