"""The instructor's demo notebook in Voila: the presenter view above, and a whole round below,
played by clicks; the line a saved notebook shows in the round's place stays hidden beside it."""

from __future__ import annotations

import harness
import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser


def test_the_demo_round_plays_in_voila(page: Page, voila: harness.Server, ref) -> None:
    page.goto(voila.url("/"))
    table = harness.Table(page)
    expect(table.held).to_have_count(8, timeout=60_000)
    harness.expect_stand_in_hidden(page.locator(".plaisante-fallback-line"))
    scores = harness.play_whole_round(page, table, ref)
    assert len(scores) == 4
    expect(page.get_by_label("scoring x-ray")).to_be_visible()  # the presenter, above
