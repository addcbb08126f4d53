"""The New Campaign wizard suggests a file name legal on Windows for any society name
(issue 29; the rules are tested in tests/test_file_names.py)."""

from __future__ import annotations

from pathlib import Path, PureWindowsPath

import pytest

from companion import paths
from companion.ui.new_campaign_wizard import NewCampaignWizard


@pytest.mark.parametrize(("society", "file_name"), [
    ("Dawn: the Ford?", "Dawn the Ford.stonesaga"),
    ("AUX", "AUX_.stonesaga"),
    ("The Ember Folk.", "The Ember Folk.stonesaga"),
])
def test_the_summary_page_suggests_a_legal_file_name(qtbot, society: str,  # type: ignore[no-untyped-def]
                                                     file_name: str) -> None:
    wizard = NewCampaignWizard(seed=1234)
    qtbot.addWidget(wizard)
    wizard.show()
    wizard.society_page.society.setText(society)
    wizard.society_page.players.setValue(2)
    for _page in ("content pack", "region", "challenge"):
        before = wizard.currentId()
        wizard.next()
        assert wizard.currentId() != before
    wizard.summary_page.initializePage()  # the page that names the file
    suggested = Path(wizard.summary_page.path.text())
    assert suggested == paths.campaigns_dir() / file_name
    assert not PureWindowsPath(suggested.name).is_reserved()
