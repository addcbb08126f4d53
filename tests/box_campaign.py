"""A "My own box" campaign for tests (issue 25 part 1), made with the operations the GUI
and the CLI call: the rules alone, then what the table typed in. Its starting tile 01
(Mossy Ford: plains, river, cave) and the face-down tiles 04 and 07 of the Verdant Vale;
one trait and two mantles typed from their cards; Ash and Bryn in 01."""

from __future__ import annotations

from pathlib import Path

from companion import operations
from companion.operations.cards import enter_card
from companion.operations.tiles import type_tile

START = "01"
FACE_DOWN = ("04", "07")


def make_box_campaign(path: Path, *, characters: bool = True) -> operations.Campaign:
    """A box campaign with its first tray (and, by default, two characters) at ``path``."""
    campaign = operations.new_campaign(path, society_name="The Box Folk", pack_id="box",
                                       seed=11)
    type_tile(campaign, tile=START, region="Verdant Vale", name="Mossy Ford",
              sections=["plains", "river", "cave"], starting=True)
    operations.set_up_valley(campaign, region="verdant-vale", face_down=list(FACE_DOWN))
    if not characters:
        return campaign
    enter_card(campaign, kind="traits", data={"id": "brave", "name": "Brave",
                                              "text": "Typed from the trait card."})
    for number, (name, mantle) in enumerate((("Ash", "pathfinder"),
                                             ("Bryn", "hearthkeeper")), 1):
        enter_card(campaign, kind="mantles", data={"id": mantle, "name": mantle.title(),
                                                   "text": "Typed from the mantle board."})
        operations.create_character(
            campaign, name=name, player=f"Player {number}", rolled=(6, 5, 4, 3, 1),
            removed=4, assignment={"might": 6, "dexterity": 5, "awareness": 4,
                                   "conviction": 3},
            traits=["brave"], mantle=mantle, hex_tile=START)
    return campaign


def make_box_with_quartz_and_quill(path: Path) -> operations.Campaign:
    """A box campaign whose pack knows the community's Quartz and Quill tokens, one of each
    in Ash's bag (issue 36 item 1: Quartz unturned beside Quill turned 180° reads Grey
    5610)."""
    from companion.operations.effects import apply_effects
    from companion.operations.material_tokens import add_material
    from tests.community_tokens import community_token

    campaign = make_box_campaign(path)
    for token in ("Quartz", "Quill"):
        add_material(campaign, **community_token(token))
    apply_effects(campaign, name="Ash", effects=[
        {"do": "gain", "resource": "quartz", "amount": 1},
        {"do": "gain", "resource": "quill", "amount": 1}])
    return campaign
