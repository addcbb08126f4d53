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
