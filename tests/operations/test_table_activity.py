"""Feature actions played wholly at the table, their outcome recorded in one line
(issue 25 part 3; Rulebook: Feature Actions): in a campaign of the owner's box, whose pack
holds no forage card yet, Ash forages at the plains with the real cards and the app
takes what it gave, the cost paid as the rules say, in one undoable step."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import operations
from companion.operations import Refused
from companion.operations.recorded import recorded_cards
from companion.operations.table_activity import activity_at_table
from tests.box_campaign import make_box_campaign


@pytest.fixture
def box(tmp_path: Path) -> operations.Campaign:
    campaign = make_box_campaign(tmp_path / "box.stonesaga")
    yield campaign
    campaign.close()


def _option(campaign: operations.Campaign, action: str, feature: str) -> operations.ActionOption:
    return next(o for o in operations.available_actions(campaign, "Ash")
                if o.action == action and o.target == feature)


def _ash(campaign: operations.Campaign) -> dict[str, int]:
    detail = campaign.character_detail("Ash")
    return {"energy": detail.energy,
            "meat": sum(1 for t in detail.bag if "meat" in str(t).casefold())}


def test_feature_actions_foraging_with_no_card_in_the_pack_is_played_at_the_table(
        box: operations.Campaign) -> None:
    forage = _option(box, "forage", "plains")
    assert forage.refusal is not None and "forage card" in forage.refusal  # the engine can't
    assert forage.at_table  # ... but the table can
    before = _ash(box)
    changes = activity_at_table(box, name="Ash", action="forage", feature="plains",
                                line="gain 2 meat, lore +1", card="FP07")
    after = _ash(box)
    assert after["energy"] == before["energy"] - forage.cost  # Foraging costs its energy
    assert after["meat"] == before["meat"] + 2
    assert "Ash foraged at the plains (FP07), played at the table" in changes.summary
    assert box.journal(1)[0].text == changes.summary
    [record] = [r for r in recorded_cards(box) if r.card == "FP07"]
    assert record.kind == "forage_cards"  # My Cards ▸ Recorded at the table can save it
    operations.undo(box)
    assert _ash(box) == before


def test_feature_actions_played_at_the_table_still_obey_the_rules(
        box: operations.Campaign) -> None:
    """Not a way around the rules: a feature not in the hex, or too little energy, is
    refused as the action itself would be, and nothing changes."""
    events = len(box.journal(1000))
    with pytest.raises(Refused):
        activity_at_table(box, name="Ash", action="forage", feature="forest",
                          line="gain 2 meat")
    with pytest.raises(Refused):
        activity_at_table(box, name="Ash", action="forage", feature="plains",
                          line="fly away")
    while _ash(box)["energy"] >= _option(box, "forage", "plains").cost:
        activity_at_table(box, name="Ash", action="forage", feature="plains",
                          line="gain 1 meat")
        if not _option(box, "forage", "plains").at_table:
            break
    option = _option(box, "forage", "plains")
    assert not option.at_table
    events = len(box.journal(1000))
    with pytest.raises(Refused):
        activity_at_table(box, name="Ash", action="forage", feature="plains",
                          line="gain 1 meat")
    assert len(box.journal(1000)) == events
