"""The web app "Stonesaga Campaign Journal" and its JSON files: read and write them.

The web app (it began as the "Stonesaga Crafting Journal", and its files still say so)
exports one JSON document. What its export code writes, by version (read in the public
repository ShadowfootNZ/stonesaga, ``app.js``, at commits c2610be, 851aed5, 5649f17 and
af5a7b3):

- a **bare recipe array** (the oldest files, which it still reads): ``[recipe, ...]``;
- **version 2**, two variants. The first (``"app": "Stone Saga Crafting Journal"``) is
  ``{"app", "version": 2, "exportedAt", "lastUpdated", "recipes", "nullCodes"}`` and its
  recipes carry a generated ``id`` with the item card in ``itemNum``; the later one
  (``"Stonesaga Crafting Journal"``) adds ``customMaterials`` and ``driveFileId`` and
  uses the item card as the recipe's ``id``;
- **version 3** adds the journal: ``culture`` (``tribeName``, ``structures`` ``{name,
  notes}``, ``mantlePowers`` ``{name, description}``, ``knowledgeCards`` ``{cardId,
  name}``, ``taboos`` ``{text}``, ``pigments`` ``{name}``), ``behemoths`` ``{name,
  lairHex, demeanor (words), secrets: [text], notes}``, ``challengeRecord`` ``{epoch
  (digits as text), name, cardId, outcome ("", "Won", "Lost", "Fled"), notes}``,
  ``loomingChallenges`` ``{name, cardId, prepareBy (text), notes, order}``,
  ``investigations`` ``{omen, cardId, notes}``, ``notePages`` ``{title, body}`` and
  ``provisionalCodes``; every journal entry also has ``id`` and ``updatedAt``. Later
  version 3 files (af5a7b3) add ``caveWall`` (``{id, name, strokes: [{c, w, pts}],
  addedAt, updatedAt}``) and ``updatedAt`` on recipes. Versions 4 and 5 (the version 5
  code at 8aae632) mark deleted entries ``"deleted": true`` and add ``codexEntries``
  ``{entry, title, sourceCategory, sourceId, notes}``, ``culture.outposts`` ``{cardId,
  name, structures: [structure entry ids], notes}``, a ``mantle`` on mantle powers,
  card IDs on structures and behemoths, ``lairOverlay`` and ``lairZone`` (A-C), secrets
  as ``{cardId, name, description}``, the demeanor as the dial's number (1-9), and on
  challenges ``status`` ("current", "resolved") and ``goalsCompleted`` instead of
  ``outcome`` (a looming challenge made current has the epoch ``""``).

Entries: a recipe is ``{id (item card), name, codes: [{color, digits}], mat1Name,
mat1Cat, mat2Name, mat2Cat, altPairs: [{mat1Name, mat1Cat, mat2Name, mat2Cat,
inferred}], notes, addedAt}``; null codes ``{mat1, mat2}`` and provisional codes
``{cardId, name, isNothing, flavor, gameText, source, revealed, updatedAt}`` are maps
keyed by the code (``"Blue 1234"``); a custom material is ``{name, cat, processed,
image, marks: [left, right, top, bottom] ("Blue 2" or null), notes}``.

The web app's importer takes any object with a ``recipes`` list (or a bare list) and
does not look at ``app`` or ``version``.

This module only knows the *format*: :func:`read_document` checks every field's type and
refuses a bad file with the field's path (``recipes[2].codes[0].digits``); nothing here
touches a campaign (``companion.operations.webjournal`` maps the document onto one).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from companion.store.webjournal_document import (
    APP_NAMES,
    BOOKKEEPING,
    CULTURE_LISTS,
    META_KEYS,
    PIP_COLOURS,
    READABLE_VERSIONS,
    SYNC_KEYS,
    Leftover,
    WebBehemoth,
    WebChallenge,
    WebCode,
    WebCodexEntry,
    WebCultureEntry,
    WebDocument,
    WebDrawing,
    WebEntry,
    WebInvestigation,
    WebJournalRefused,
    WebLooming,
    WebMantlePower,
    WebMaterial,
    WebNotePage,
    WebNullCode,
    WebOutpost,
    WebPair,
    WebProvisional,
    WebRecipe,
    WebSecret,
    WebTombstone,
)

_CODE_KEY = re.compile(r"^\s*([A-Za-z]+)\s+([0-9]{4})\s*$")

# --- reading, field by field -------------------------------------------------------------


class _Reader:
    """Type checks with the path of the field at fault."""

    def __init__(self, src: Path) -> None:
        self.src = src

    def refuse(self, path: str, why: str) -> WebJournalRefused:
        return WebJournalRefused(self.src, f"{path}: {why}" if path else why)

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.refuse(path, f"expected an object, found {_kind(value)}")
        return value

    def array(self, value: Any, path: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            raise self.refuse(path, f"expected a list, found {_kind(value)}")
        return value

    def text(self, item: dict[str, Any], key: str, path: str, *, required: bool = False
             ) -> str:
        value = item.get(key)
        if value is None or (value == "" and not required):
            if required:
                raise self.refuse(f"{path}.{key}", "missing")
            return ""
        if not isinstance(value, str):
            raise self.refuse(f"{path}.{key}", f"expected text, found {_kind(value)}")
        return value

    def number(self, item: dict[str, Any], key: str, path: str) -> int | None:
        """A whole number; the web app's forms give them as numbers or as digit text."""
        value = item.get(key)
        if value is None or value == "":
            return None
        if isinstance(value, bool):
            raise self.refuse(f"{path}.{key}", "expected a number, found true/false")
        if isinstance(value, int):
            return value
        if isinstance(value, float) and value.is_integer():
            return int(value)
        if isinstance(value, str) and value.strip().lstrip("-").isdigit():
            return int(value)
        raise self.refuse(f"{path}.{key}", f"expected a whole number, found {value!r}")

    def flag(self, item: dict[str, Any], key: str, path: str) -> bool:
        value = item.get(key, False)
        if value is None:
            return False
        if not isinstance(value, bool):
            raise self.refuse(f"{path}.{key}", f"expected true or false, found {_kind(value)}")
        return value

    def code(self, value: Any, path: str) -> WebCode:
        item = self.obj(value, path)
        color = self.text(item, "color", path, required=True)
        digits = item.get("digits")
        if not isinstance(digits, str):
            raise self.refuse(f"{path}.digits", f"expected text, found {_kind(digits)}")
        return self.checked_code(color, digits, path)

    def checked_code(self, color: str, digits: str, path: str) -> WebCode:
        colour = next((c for c in PIP_COLOURS if c.casefold() == color.strip().casefold()),
                      None)
        if colour is None:
            raise self.refuse(path, f"{color!r} is not a pip colour of the web journal "
                              f"({', '.join(PIP_COLOURS)})")
        if not re.fullmatch(r"[0-9]{4}", digits.strip()):
            raise self.refuse(path, f"a code has four digits, not {digits!r}")
        return WebCode(colour, digits.strip())

    def code_key(self, key: str, path: str) -> WebCode:
        match = _CODE_KEY.match(key)
        if not match:
            raise self.refuse(path, f"{key!r} is not a code like \"Blue 1234\"")
        return self.checked_code(match[1], match[2], path)


def _kind(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true/false"
    return {str: "text", int: "a number", float: "a number", list: "a list",
            dict: "an object"}.get(type(value), type(value).__name__)


def _extra(item: dict[str, Any], known: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in item.items()
            if k not in known and k not in BOOKKEEPING and v not in (None, "", [], {})}


def _live(r: _Reader, section: Any, path: str, doc: WebDocument, *, name: str = ""
          ) -> list[tuple[str, dict[str, Any]]]:
    """(path, entry) of the entries of a list section that are not deleted; the deleted
    ones are kept whole as the document's tombstones (of section ``name``, else
    ``path``), by their id (a custom material, which has none, by its name)."""
    out = []
    for i, value in enumerate(r.array(section, path)):
        item = r.obj(value, f"{path}[{i}]")
        if r.flag(item, "deleted", f"{path}[{i}]"):
            doc.deleted += 1
            key = item.get("id") or (item.get("name") if path == "customMaterials" else "")
            doc.tombstones.append(WebTombstone(name or path, str(key or ""), item))
            continue
        out.append((f"{path}[{i}]", item))
    return out


def _keyed(r: _Reader, section: Any, path: str, doc: WebDocument
           ) -> list[tuple[str, WebCode, dict[str, Any]]]:
    if section is None:
        return []
    out = []
    for key, value in r.obj(section, path).items():
        where = f"{path}[{key!r}]"
        code = r.code_key(key, where)
        item = r.obj(value, where)
        if r.flag(item, "deleted", where):
            doc.deleted += 1
            doc.tombstones.append(WebTombstone(path, key, item))
            continue
        out.append((where, code, item))
    return out


_PAIR_KEYS = ("mat1Name", "mat1Cat", "mat2Name", "mat2Cat")


def _pair(r: _Reader, item: dict[str, Any], path: str) -> WebPair | None:
    left, right = r.text(item, "mat1Name", path), r.text(item, "mat2Name", path)
    if not left and not right:
        return None
    return WebPair(left, right, r.text(item, "mat1Cat", path), r.text(item, "mat2Cat", path),
                   r.flag(item, "inferred", path))


def _recipes(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    known = ("name", "codes", *_PAIR_KEYS, "altPairs", "notes", "itemNum")
    for where, item in _live(r, values, path, doc):
        codes = tuple(r.code(c, f"{where}.codes[{j}]")
                      for j, c in enumerate(r.array(item.get("codes"), f"{where}.codes")))
        primary = _pair(r, item, where)
        alternatives = [_pair(r, r.obj(p, f"{where}.altPairs[{j}]"), f"{where}.altPairs[{j}]")
                        for j, p in enumerate(r.array(item.get("altPairs"),
                                                      f"{where}.altPairs"))]
        pairs = tuple(p for p in [primary, *alternatives] if p is not None)
        # The first version 2 files keep the item card in "itemNum" and give the
        # recipe a generated "id"; later ones use the item card as the id.
        id_key = "itemNum" if "itemNum" in item else "id"
        item_id = item.get(id_key)
        if item_id is not None and not isinstance(item_id, str):
            raise r.refuse(f"{where}.{id_key}", f"expected text, found {_kind(item_id)}")
        doc.recipes.append(WebRecipe(
            item_id=(item_id or "").strip(), name=r.text(item, "name", where), codes=codes,
            pairs=pairs, notes=r.text(item, "notes", where), extra=_extra(item, known),
            raw=item))


def _null_codes(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, code, item in _keyed(r, values, path, doc):
        left, right = r.text(item, "mat1", where), r.text(item, "mat2", where)
        doc.null_codes.append(WebNullCode(code, WebPair(left, right) if left or right
                                          else None, raw=item))


def _provisional(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, code, item in _keyed(r, values, path, doc):
        doc.provisional.append(WebProvisional(
            code=code, card_id=r.text(item, "cardId", where), name=r.text(item, "name", where),
            dead_end=r.flag(item, "isNothing", where), flavor=r.text(item, "flavor", where),
            game_text=r.text(item, "gameText", where), source=r.text(item, "source", where),
            revealed=r.flag(item, "revealed", where), raw=item))


def _materials(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, item in _live(r, values, path, doc):
        marks = item.get("marks")
        if marks is not None:
            marks = r.array(marks, f"{where}.marks")
            for j, mark in enumerate(marks):
                if mark is not None and not isinstance(mark, str):
                    raise r.refuse(f"{where}.marks[{j}]", f"expected text like \"Blue 2\", "
                                   f"found {_kind(mark)}")
        doc.materials.append(WebMaterial(
            name=r.text(item, "name", where, required=True), category=r.text(item, "cat", where),
            processed=r.text(item, "processed", where), image=r.text(item, "image", where),
            marks=tuple(marks or ()), notes=r.text(item, "notes", where), raw=item))


def _culture(r: _Reader, value: Any, path: str, doc: WebDocument) -> None:
    if value is None:
        return
    culture = r.obj(value, path)
    doc.tribe_name = r.text(culture, "tribeName", path)
    doc.culture_updated_at = culture.get("updatedAt")
    fields = {"structures": ("name", ("cardId", "notes")), "knowledgeCards": ("name", ("cardId",)),
              "taboos": ("text", ()), "pigments": ("name", ())}
    for kind, (main, others) in fields.items():
        for where, item in _live(r, culture.get(kind), f"{path}.{kind}", doc):
            doc.culture.append(WebCultureEntry(
                kind, r.text(item, main, where, required=True),
                card_id=r.text(item, "cardId", where) if "cardId" in others else "",
                notes=r.text(item, "notes", where) if "notes" in others else "", raw=item))
    for where, item in _live(r, culture.get("mantlePowers"), f"{path}.mantlePowers", doc):
        doc.mantle_powers.append(WebMantlePower(
            r.text(item, "cardId", where), r.text(item, "mantle", where),
            r.text(item, "name", where), r.text(item, "description", where), raw=item))
    for where, item in _live(r, culture.get("outposts"), f"{path}.outposts", doc):
        structures = r.array(item.get("structures"), f"{where}.structures")
        for j, sid in enumerate(structures):
            if not isinstance(sid, str):
                raise r.refuse(f"{where}.structures[{j}]",
                               f"expected a structure's id, found {_kind(sid)}")
        doc.outposts.append(WebOutpost(
            r.text(item, "cardId", where), r.text(item, "name", where), tuple(structures),
            r.text(item, "notes", where), raw=item))
    for kind, value_ in culture.items():
        if kind in (*fields, "mantlePowers", "outposts", "tribeName", "updatedAt") \
                or value_ in (None, "", []):
            continue
        live = [e for e in value_ if not (isinstance(e, dict) and e.get("deleted"))] \
            if isinstance(value_, list) else value_
        if live:
            doc.leftovers.append(Leftover(f"{path}.{kind}", section_words(kind), _dump(live),
                                          value_))


def _codex(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, item in _live(r, values, path, doc):
        entry = item.get("entry")
        if isinstance(entry, (int, float)) and not isinstance(entry, bool):
            entry = str(entry)
        doc.codex.append(WebCodexEntry(
            entry if isinstance(entry, str) else r.text(item, "entry", where),
            r.text(item, "title", where), r.text(item, "sourceCategory", where),
            r.text(item, "sourceId", where), r.text(item, "notes", where), raw=item))


def _cave_wall(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, item in _live(r, values, path, doc):
        strokes = r.array(item.get("strokes"), f"{where}.strokes")
        for j, stroke in enumerate(strokes):
            at = f"{where}.strokes[{j}]"
            stroke = r.obj(stroke, at)
            points = r.array(stroke.get("pts"), f"{at}.pts")
            if not all(isinstance(p, (int, float)) and not isinstance(p, bool)
                       for p in points):
                raise r.refuse(f"{at}.pts", "expected a list of numbers (x, y, x, y ...)")
        doc.drawings.append(WebDrawing(r.text(item, "name", where), tuple(strokes),
                                       raw=item))


def _secrets(r: _Reader, values: Any, path: str) -> tuple[WebSecret, ...]:
    secrets = []
    for j, value in enumerate(r.array(values, path)):
        if isinstance(value, str):  # the web app's first secrets were plain text
            secrets.append(WebSecret("", value, ""))
            continue
        item = r.obj(value, f"{path}[{j}]")
        secrets.append(WebSecret(r.text(item, "cardId", f"{path}[{j}]"),
                                 r.text(item, "name", f"{path}[{j}]"),
                                 r.text(item, "description", f"{path}[{j}]")))
    return tuple(secrets)


def _demeanor(r: _Reader, item: dict[str, Any], where: str) -> tuple[int | None, str]:
    """(dial, words): version 3's form takes words ("Aggressive"), later ones the dial."""
    value = item.get("demeanor")
    if isinstance(value, str) and not value.strip().isdigit():
        return None, value.strip()
    demeanor = r.number(item, "demeanor", where)
    if demeanor is not None and not 1 <= demeanor <= 9:
        raise r.refuse(f"{where}.demeanor", f"a demeanor dial is 1 to 9, not {demeanor}")
    return demeanor, ""


def _behemoths(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    known = ("cardId", "name", "lairHex", "demeanor", "secrets", "notes")
    del known  # the entry's other fields go back with it (its link keeps them)
    for where, item in _live(r, values, path, doc):
        demeanor, demeanor_text = _demeanor(r, item, where)
        doc.behemoths.append(WebBehemoth(
            card_id=r.text(item, "cardId", where), name=r.text(item, "name", where),
            lair_hex=r.text(item, "lairHex", where), demeanor=demeanor,
            secrets=_secrets(r, item.get("secrets"), f"{where}.secrets"),
            notes=r.text(item, "notes", where), demeanor_text=demeanor_text,
            lair_overlay=r.text(item, "lairOverlay", where),
            lair_zone=r.text(item, "lairZone", where), raw=item))


def _challenges(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    entries: list[tuple[str, dict[str, Any], int | None]] = []
    if isinstance(values, dict):  # {"epoch1": [...], ...}: how the journal was planned
        for key, group in values.items():
            digits = re.sub(r"\D", "", key)
            for where, item in _live(r, group, f"{path}[{key!r}]", doc, name=path):
                entries.append((where, item, int(digits) if digits else None))
    else:
        for where, item in _live(r, values, path, doc):
            entries.append((where, item, None))
    known = ("epoch", "name", "cardId", "outcome", "status", "notes", "goalsCompleted",
             "prepareBy")
    del known  # the entry's other fields go back with it (its link keeps them)
    for where, item, epoch in entries:
        doc.challenges.append(WebChallenge(
            epoch=r.number(item, "epoch", where) if item.get("epoch") not in (None, "")
            else epoch, name=r.text(item, "name", where), card_id=r.text(item, "cardId", where),
            outcome=r.text(item, "outcome", where) or r.text(item, "status", where),
            notes=r.text(item, "notes", where),
            goals_completed=r.text(item, "goalsCompleted", where),
            status=r.text(item, "status", where), raw=item))


def _looming(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for position, (where, item) in enumerate(_live(r, values, path, doc)):
        key = "prepareBy" if item.get("prepareBy") not in (None, "") else "prepareByEpoch"
        written = item.get(key)
        prepare_text = ""
        if isinstance(written, str) and written.strip() and not written.strip().isdigit():
            prepare, prepare_text = None, written.strip()  # "before the thaw": words
        else:
            prepare = r.number(item, key, where)
        order = r.number(item, "order", where)
        doc.looming.append(WebLooming(
            name=r.text(item, "name", where), card_id=r.text(item, "cardId", where),
            prepare_by=prepare, notes=r.text(item, "notes", where),
            order=position if order is None else order, prepare_by_text=prepare_text,
            raw=item))
    doc.looming.sort(key=lambda e: e.order)


def _investigations(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, item in _live(r, values, path, doc):
        doc.investigations.append(WebInvestigation(
            r.text(item, "omen", where), r.text(item, "cardId", where),
            r.text(item, "notes", where), raw=item))


def _note_pages(r: _Reader, values: Any, path: str, doc: WebDocument) -> None:
    for where, item in _live(r, values, path, doc):
        doc.notes.append(WebNotePage(r.text(item, "title", where),
                                     r.text(item, "body", where), raw=item))


_SECTIONS = {
    "recipes": _recipes, "nullCodes": _null_codes, "provisionalCodes": _provisional,
    "customMaterials": _materials, "culture": _culture, "behemoths": _behemoths,
    "challengeRecord": _challenges, "loomingChallenges": _looming,
    "investigations": _investigations, "notePages": _note_pages,
    "codexEntries": _codex, "caveWall": _cave_wall,
}
#: Sections each version writes (what else a file holds is kept as notes).
_BY_VERSION = {
    2: ("recipes", "nullCodes", "customMaterials"),
    3: tuple(k for k in _SECTIONS if k != "codexEntries"),
}


def section_words(key: str) -> str:
    """A web-app key in words: ``caveWall`` -> "Cave wall"."""
    return re.sub(r"(?<!^)([A-Z])", r" \1", key).capitalize()


def _dump(value: Any) -> str:
    """A value without a home as the text of its note: the file's own JSON, less the web
    app's bookkeeping (entry ids and timestamps mean nothing to a player)."""
    return value if isinstance(value, str) else json.dumps(
        _without_bookkeeping(value), ensure_ascii=False, indent=2)


def _without_bookkeeping(value: Any) -> Any:
    if isinstance(value, list):
        return [_without_bookkeeping(v) for v in value]
    if isinstance(value, dict):
        return {k: _without_bookkeeping(v) for k, v in value.items()
                if k not in ("id", "updatedAt", "addedAt")}
    return value


def parse_document(data: Any, src: Path) -> WebDocument:
    """Check ``data`` (a decoded web-journal file) field by field.

    Raises :class:`WebJournalRefused` naming the first field at fault.
    """
    r = _Reader(src)
    if isinstance(data, list):
        doc = WebDocument(shape="bare recipe array", version=1)
        _recipes(r, data, "", doc)
        # A bare array's paths read "[2].codes": name the array.
        return doc
    if not isinstance(data, dict):
        raise r.refuse("", f"it holds {what_it_holds(data)}; expected a Stonesaga Campaign "
                       "Journal file (an object with its recipes and journal sections, or "
                       "a list of recipes)")
    app = data.get("app")
    if app is not None and app not in APP_NAMES:
        raise r.refuse("app", f"{app!r} is not the Stonesaga Campaign Journal")
    if "format" in data and "tables" in data:
        raise r.refuse("", "it is a Stonesaga Companion export, not a web journal file; "
                       "import it with 'companion import' (File ▸ Import) instead")
    version = data.get("version")
    if version is None:
        if not any(k in data for k in _SECTIONS):
            raise r.refuse("", f"it holds {what_it_holds(data)}; expected a Stonesaga "
                           "Campaign Journal file (with recipes, codes or journal sections)")
        version = 3 if any(k in data for k in _SECTIONS if k not in _BY_VERSION[2]) else 2
    if isinstance(version, bool) or not isinstance(version, int) \
            or version not in READABLE_VERSIONS:
        raise r.refuse("version", f"web journal version {version!r} is unknown (this "
                       f"program reads versions {', '.join(map(str, READABLE_VERSIONS))})")
    if "recipes" not in data and version == 2:
        raise r.refuse("recipes", "missing")
    doc = WebDocument(shape=f"version {version}", version=version, app=app or "")
    for key, reader in _SECTIONS.items():
        reader(r, data.get(key), key, doc)
    doc.skipped_sync = tuple(k for k in SYNC_KEYS if data.get(k))
    for key, value in data.items():
        if key in _SECTIONS or key in META_KEYS or key in SYNC_KEYS \
                or value in (None, "", [], {}):
            continue
        live = [e for e in value if not (isinstance(e, dict) and e.get("deleted"))] \
            if isinstance(value, list) else value
        if live:
            doc.leftovers.append(Leftover(key, section_words(key), _dump(live), value))
    return doc


def read_document(src: Path) -> WebDocument:
    """Read and check the web-journal file ``src``; refuses it (with the field's path)
    when it is not JSON, is truncated, is of an unknown version or has a wrong type."""
    try:
        # utf-8-sig: the web app opens a file with a byte order mark, and so do we.
        text = Path(src).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise WebJournalRefused(src, f"it cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        where = "it ends too soon (truncated?)" if exc.pos >= len(text.rstrip()) else \
            f"it is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        raise WebJournalRefused(src, where) from None
    except RecursionError:
        raise WebJournalRefused(src, "it is nested too deeply to be a Campaign Journal "
                                     "file") from None
    except ValueError:  # an integer of more than 4,300 digits (int_max_str_digits)
        raise WebJournalRefused(src, "it holds a number too long to read (more than "
                                     "4,300 digits)") from None
    return parse_document(data, src)


def what_it_holds(data: Any) -> str:
    """What a decoded JSON document is, in words, for a refusal: "a JSON string
    ('hello')", "nothing (JSON null)", "an object with the keys a, b"."""
    if data is None:
        return "nothing (JSON null)"
    if isinstance(data, bool):
        return f"only the JSON value {str(data).lower()}"
    if isinstance(data, (int, float)):
        return f"only a JSON number ({str(data)[:20]})"
    if isinstance(data, str):
        shown = data if len(data) <= 40 else data[:40] + "…"
        return f"only a JSON string ({shown!r})"
    if isinstance(data, list):
        return f"a JSON list of {len(data)} values"
    if isinstance(data, dict):
        keys = sorted(str(k) for k in data)
        if not keys:
            return "an empty JSON object"
        shown = ", ".join(keys[:6]) + (", …" if len(keys) > 6 else "")
        fmt = data.get("format")
        return (f"a JSON object of format {fmt!r}" if isinstance(fmt, str) else
                f"a JSON object with the keys {shown}")
    return f"a JSON {type(data).__name__}"


def looks_like_web_journal(data: Any) -> bool:
    """Whether decoded JSON is meant as a web-journal file (rather than our own export)."""
    if isinstance(data, list):
        return True
    return isinstance(data, dict) and "tables" not in data and (
        data.get("app") in APP_NAMES or any(k in data for k in _SECTIONS))


def is_web_journal_file(src: Path) -> bool:
    """Whether the file ``src`` is meant as a web-journal file (rather than our own
    export): a broken or truncated JSON file that is not ours counts too, so that its
    refusal names what is wrong with it."""
    try:
        text = Path(src).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return False
    try:
        return looks_like_web_journal(json.loads(text))
    except (json.JSONDecodeError, RecursionError, ValueError):
        # Not JSON, nested past the recursion limit, or a number of more than 4,300
        # digits: the importer it looks meant for refuses it in words.
        return '"format"' not in text[:200]


__all__ = [
    "APP_NAMES",
    "BOOKKEEPING",
    "CULTURE_LISTS",
    "Leftover",
    "META_KEYS",
    "PIP_COLOURS",
    "READABLE_VERSIONS",
    "SYNC_KEYS",
    "WebBehemoth",
    "WebChallenge",
    "WebCode",
    "WebCodexEntry",
    "WebCultureEntry",
    "WebDocument",
    "WebDrawing",
    "WebEntry",
    "WebInvestigation",
    "WebJournalRefused",
    "WebLooming",
    "WebMantlePower",
    "WebMaterial",
    "WebNotePage",
    "WebNullCode",
    "WebOutpost",
    "WebPair",
    "WebProvisional",
    "WebRecipe",
    "WebSecret",
    "WebTombstone",
    "is_web_journal_file",
    "looks_like_web_journal",
    "parse_document",
    "read_document",
    "section_words",
    "what_it_holds",
]
