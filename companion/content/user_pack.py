"""The user's own packs: cards entered at the table, written as YAML and checked by the
loader.

An owner who draws a card the campaign's content does not know enters it on the spot;
it goes into a pack of their own in the user's data folder that ``extends`` the
campaign's pack (created on first use, see :func:`own_pack_for`). Every change here is
a plain file write followed by a load of the whole pack chain: a change that would
break the pack is undone and raised as :class:`ContentError` (``file:line`` issues), so
the pack on disk always loads as it did before.

One file per component kind (``fishing_cards.yaml`` ...), so an owner editing by hand
finds a card where they expect it. Every change bumps the pack's version (its last
number), which a campaign records with the packs it uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from companion import paths
from companion.content import yamlio
from companion.content.errors import ContentError, ContentIssue, issue_message
from companion.content.loader import MANIFEST, load_content
from companion.content.schema.pack import KIND_MODELS, KINDS, PackManifest

if TYPE_CHECKING:
    import yaml

OWN_SUFFIX = "-mine"
"""A base pack ``sample`` gets the user pack ``sample-mine``."""

#: Kinds a table draws during play, with the word players use for one of them.
DRAWN_KINDS: dict[str, str] = {
    "fishing_cards": "fishing card",
    "forage_cards": "forage card",
    "delving_cards": "delving card",
    "discovery_cards": "Discovery card",
    "night_cards": "Night card",
    "reaction_cards": "Reaction card",
    "instinct_cards": "Instinct card",
    "secret_cards": "Secret card",
    "materials": "material (mining chip)",
}


_OTHER_WORDS = {"hexes": "hex tile", "crafting": "crafting entry"}
"""Kinds whose singular is not the kind less its "s"."""

_ONE_WORDS = {"materials": "material token"}
"""One entry of a kind in a sentence ("Entered the material token reed"), where the
kind's menu label says more ("material (mining chip)")."""

#: Kinds a group typing its own box enters besides the cards drawn in play (My own box:
#: the trait cards and mantles characters are made with, a tile the table placed).
TABLE_KINDS: dict[str, str] = {
    "traits": "trait card",
    "mantles": "mantle",
    "hexes": "hex tile",
}

SEALED_KINDS = ("codex_outcomes", "codex_omen_entries", "crafting")
"""Kinds never listed (the Codex and the crafting entries are secret): an own pack's
Codex outcome recorded at the table is shown only when its number is read again."""


def entry_id(kind: str, item: Mapping[str, Any]) -> str | None:
    """The key of an entry as a pack holds it: its id; a Codex outcome's number; a
    crafting entry's code as the community writes it ("R1410")."""
    if kind == "codex_outcomes" and item.get("number") is not None:
        number = item["number"]
        return f"{number:03d}" if type(number) is int else str(number)
    if kind == "crafting" and item.get("colour") and item.get("code") is not None:
        from companion.content.schema.base import PipColour

        try:
            letter = PipColour(str(item["colour"]).casefold()).letter
        except ValueError:
            return None
        return f"{letter}{item['code']}"
    return str(item["id"]) if "id" in item else None


def kind_word(kind: str) -> str:
    """A component kind in players' words ("fishing card", "material token")."""
    return _ONE_WORDS.get(kind) or DRAWN_KINDS.get(kind) or _OTHER_WORDS.get(kind) or \
        kind.removesuffix("s").replace("_", " ")


@dataclass(frozen=True)
class UserPack:
    """A pack in the user's content folder."""

    manifest: PackManifest
    folder: Path


@dataclass(frozen=True)
class PackEntry:
    """One entry of a user pack, where it is written."""

    kind: str
    id: str
    name: str
    file: Path
    line: int | None
    data: Mapping[str, Any]

    @property
    def where(self) -> str:
        """``folder/file.yaml:LINE``."""
        where = f"{self.file.parent.name}/{self.file.name}"
        return f"{where}:{self.line}" if self.line else where


# --- finding and creating packs ---------------------------------------------------------


def _manifest(folder: Path) -> PackManifest | None:
    import yaml  # here, not at the top: a campaign opens without reading any YAML

    try:
        data = yamlio.load((folder / MANIFEST).read_text(encoding="utf-8"))
        return PackManifest.model_validate(data)
    except (OSError, UnicodeDecodeError, yaml.YAMLError, ValidationError, ValueError,
            TypeError):
        return None


def user_packs() -> list[UserPack]:
    """The packs in the user's content folder whose ``pack.yaml`` reads (a pack whose
    manifest is broken is reported by :func:`check_pack` / ``content check``)."""
    root = paths.user_content_dir()
    found = []
    for folder in sorted(p for p in root.iterdir() if (p / MANIFEST).is_file()):
        manifest = _manifest(folder)
        if manifest is not None:
            found.append(UserPack(manifest, folder))
    return found


def is_user_pack(folder: Path) -> bool:
    """Whether ``folder`` lies in the user's content folder."""
    return Path(folder).resolve().is_relative_to(paths.user_content_dir().resolve())


def find_user_pack(pack_id: str) -> UserPack | None:
    """The user pack with this id, if any."""
    return next((p for p in user_packs() if p.manifest.id == pack_id), None)


def own_pack_for(chain: Sequence[PackManifest], *, create: bool = True) -> UserPack:
    """The user pack that entered cards go to for a campaign using ``chain``: the
    chain's last pack when it is already the user's own, else ``<base>-mine`` extending
    it (created now if missing; with ``create=False`` it is only planned, and
    :func:`add_cards` creates it with its first cards)."""
    top = chain[-1]
    existing = find_user_pack(top.id)
    if existing is not None:
        return existing
    if top.id.endswith(OWN_SUFFIX) and top.extends is not None:
        # An own pack this data folder lacks (the campaign brought its cards along):
        # made here with the same id, never ``<pack>-mine-mine``.
        return create_pack(top.id, top.name, extends=top.extends)
    own_id = f"{top.id}{OWN_SUFFIX}"
    existing = find_user_pack(own_id)
    if existing is not None:
        return existing
    planned = _planned_pack(own_id, f"My cards ({top.name})", extends=top.id)
    return create_pack(own_id, planned.manifest.name, extends=top.id) if create else planned


def _planned_pack(pack_id: str, name: str, *, extends: str) -> UserPack:
    manifest = PackManifest(id=pack_id, name=name, version="1.0.0", extends=extends,
                            description="Cards entered at the table.")
    return UserPack(manifest, paths.user_content_dir() / pack_id)


def create_pack(pack_id: str, name: str, *, extends: str) -> UserPack:
    """Create an empty user pack ``pack_id`` extending ``extends``."""
    planned = _planned_pack(pack_id, name, extends=extends)
    manifest, folder = planned.manifest, planned.folder
    if (folder / MANIFEST).exists():  # there, but it does not read: never overwrite it
        raise ContentError([ContentIssue(folder / MANIFEST, None, "",
                                         "this pack's pack.yaml does not read; fix it "
                                         "first (id, name, version, extends)")])
    folder.mkdir(parents=True, exist_ok=True)
    _write_yaml(folder / MANIFEST, manifest.model_dump(mode="json", exclude_defaults=True))
    return UserPack(manifest, folder)


# --- reading ---------------------------------------------------------------------------


def card_file(folder: Path, kind: str) -> Path:
    """The file a kind's entries are written to."""
    return Path(folder) / f"{kind}.yaml"


def _read_file(file: Path) -> tuple[dict[str, Any], yaml.Node | None]:
    if not file.is_file():
        return {}, None
    text = file.read_text(encoding="utf-8")
    data, node = yamlio.parse(text)
    return (data if isinstance(data, dict) else {}), node


def entries(folder: Path) -> Iterator[PackEntry]:
    """Every entry with an id in the pack's files, in file order (files that do not
    read are skipped: :func:`check_pack` reports them)."""
    import yaml

    for file in sorted(Path(folder).glob("*.y*ml")):
        if file.name == MANIFEST or file.name == "rules.yaml":
            continue
        try:
            data, node = _read_file(file)
        except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, TypeError):
            continue
        for kind, items in data.items():
            if not isinstance(items, list):
                continue
            for index, item in enumerate(items):
                key = entry_id(str(kind), item) if isinstance(item, dict) else None
                if key is None:
                    continue
                line = yamlio.locate(node, (kind, index))[0]
                yield PackEntry(str(kind), key, str(item.get("name") or ""),
                                file, line, item)


def check_pack(folder: Path, extra_dirs: Sequence[Path] = ()) -> list[ContentIssue]:
    """Every problem of the pack in ``folder`` (with the packs it extends); [] if it
    loads."""
    manifest = _manifest(Path(folder))
    if manifest is None:
        return [ContentIssue(Path(folder) / MANIFEST, None, "",
                             "pack.yaml does not read (id, name and version)")]
    try:
        load_content(manifest.id, extra_dirs=extra_dirs)
    except ContentError as exc:
        return exc.issues
    return []


# --- writing ---------------------------------------------------------------------------


def validate_card(kind: str, data: Any) -> BaseModel:
    """``data`` as an entry of ``kind``, or ContentError naming each field and why."""
    if kind not in KIND_MODELS:
        raise ContentError([ContentIssue(Path(kind), None, "",
                                         f"unknown component kind {kind!r}; one of: "
                                         + ", ".join(KINDS))])
    try:
        return KIND_MODELS[kind].model_validate(data)
    except ValidationError as exc:
        raise ContentError([
            ContentIssue(Path(f"{kind_word(kind)}"), None,
                         ".".join(str(p) for p in detail["loc"]), issue_message(detail))
            for detail in exc.errors(include_url=False)
        ]) from None
    except (ValueError, TypeError, RecursionError) as exc:
        raise ContentError([ContentIssue(Path(kind_word(kind)), None, "", str(exc))]) from None


def _clean(model: BaseModel) -> dict[str, Any]:
    """The entry as YAML data: defaults left out, the id first."""
    data: dict[str, Any] = model.model_dump(mode="json", exclude_defaults=True)
    if "id" in data:
        data = {"id": data.pop("id"), **data}
    return data


def _write_yaml(file: Path, data: Any) -> None:
    import yaml

    text = yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=88)
    tmp = file.with_suffix(file.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(file)


def _bump(version: str) -> str:
    match = re.match(r"^(.*?)(\d+)$", version)
    return f"{match[1]}{int(match[2]) + 1}" if match else f"{version}.1"


def _issue_keys(issues: Sequence[ContentIssue]) -> set[tuple[str, str, str]]:
    return {(str(i.file), i.path, i.message) for i in issues}


def _change(folder: Path, files: Mapping[Path, Any], extra_dirs: Sequence[Path]) -> None:
    """Write ``files`` (None removes a file), bump the version, and load the chain; undo
    everything if the load finds a problem that was not there before."""
    folder = Path(folder)
    before_issues = _issue_keys(check_pack(folder, extra_dirs))
    manifest_file = folder / MANIFEST
    saved = {f: f.read_text(encoding="utf-8") if f.is_file() else None
             for f in [*files, manifest_file]}
    try:
        for file, data in files.items():
            if data is None:
                file.unlink(missing_ok=True)
            else:
                _write_yaml(file, data)
        manifest = _manifest(folder)
        if manifest is not None:
            _write_yaml(manifest_file, manifest.model_copy(
                update={"version": _bump(manifest.version)}).model_dump(
                    mode="json", exclude_defaults=True))
        after = check_pack(folder, extra_dirs)
        new = [i for i in after if (str(i.file), i.path, i.message) not in before_issues]
        if new:
            raise ContentError(new)
    except BaseException:
        for file, text in saved.items():
            if text is None:
                file.unlink(missing_ok=True)
            else:
                file.write_text(text, encoding="utf-8")
        raise


def add_card(folder: Path, kind: str, data: Any, *, replace: str | None = None,
             extra_dirs: Sequence[Path] = ()) -> BaseModel:
    """Write an entry of ``kind`` into the user pack in ``folder`` and return it.

    ``replace`` is the id of the entry being edited (it may change its id); without it
    an entry with the same id in this pack is refused (an entry of the extended pack
    with that id is replaced, as ``extends`` does). Raises ContentError naming each
    problem; then nothing is written.
    """
    model = validate_card(kind, data)
    file = card_file(folder, kind)
    current, _node = _read_file(file)
    items = _placed(file, kind, list(current.get(kind) or []), model, replace)
    _change(folder, {file: {**current, kind: items}}, extra_dirs)
    return model


def add_cards(pack: UserPack, kind: str, cards: Sequence[Any], *,
              replace: str | None = None, extra_dirs: Sequence[Path] = ()
              ) -> list[BaseModel]:
    """Write the entries ``cards`` of ``kind`` into ``pack``, all of them or none.

    A pack not on disk yet (``own_pack_for(..., create=False)``) is created with them,
    and only then: a refusal (ContentError naming each problem, as :func:`add_card`)
    leaves the user's data folder as it was, without an empty pack.
    """
    folder = Path(pack.folder)
    with _created_only_if_written(pack) as new_pack:
        models = [validate_card(kind, data) for data in cards]
        if new_pack:
            create_pack(pack.manifest.id, pack.manifest.name,
                        extends=str(pack.manifest.extends))
        file = card_file(folder, kind)
        current, _node = _read_file(file)
        items = list(current.get(kind) or [])
        for model in models:
            items = _placed(file, kind, items, model, replace)
        _change(folder, {file: {**current, kind: items}}, extra_dirs)
        return models


def add_card_sets(pack: UserPack, sets: Mapping[str, Sequence[Any]], *,
                  extra_dirs: Sequence[Path] = ()) -> dict[str, list[BaseModel]]:
    """Write entries of several kinds into ``pack`` at once, all of them or none (a
    challenge card and the goals it names, which must go in together): as
    :func:`add_cards`, in one change of the pack."""
    folder = Path(pack.folder)
    with _created_only_if_written(pack) as new_pack:
        checked = {kind: [validate_card(kind, data) for data in cards]
                   for kind, cards in sets.items() if cards}
        if new_pack:
            create_pack(pack.manifest.id, pack.manifest.name,
                        extends=str(pack.manifest.extends))
        files: dict[Path, Any] = {}
        for kind, models in checked.items():
            file = card_file(folder, kind)
            current, _node = _read_file(file)
            items = list(current.get(kind) or [])
            for model in models:
                items = _placed(file, kind, items, model, None)
            files[file] = {**current, kind: items}
        _change(folder, files, extra_dirs)
        return checked


@contextmanager
def _created_only_if_written(pack: UserPack) -> Iterator[bool]:
    """Whether ``pack`` is new on disk; if what follows fails, the pack's manifest and
    folder made meanwhile go again, leaving the user's data folder as it was."""
    folder = Path(pack.folder)
    new_folder = not folder.exists()
    new_pack = not (folder / MANIFEST).exists()
    try:
        yield new_pack
    except BaseException:
        if new_pack:
            (folder / MANIFEST).unlink(missing_ok=True)
        if new_folder and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
        raise


def _placed(file: Path, kind: str, items: list[Any], model: BaseModel,
            replace: str | None) -> list[Any]:
    """``items`` (a kind's entries in ``file``) with ``model`` added, or put in place of
    the entry ``replace``; ContentError if its id is already taken."""
    new_id = entry_id(kind, _clean(model)) or ""
    items = list(items)
    ids = [entry_id(kind, i) if isinstance(i, dict) else None for i in items]
    if replace is not None and replace in ids:
        index = ids.index(replace)
        if new_id != replace and new_id in ids:
            raise ContentError([ContentIssue(file, None, "id",
                                             f"this pack already has a {kind_word(kind)} "
                                             f"{new_id!r}")])
        items[index] = _clean(model)
    else:
        if new_id and new_id in ids:  # kinds without an id the loader checks
            raise ContentError([ContentIssue(file, None, "id",
                                             f"this pack already has a {kind_word(kind)} "
                                             f"{new_id!r}")])
        items.append(_clean(model))
    return items


def delete_card(folder: Path, kind: str, card_id: str,
                extra_dirs: Sequence[Path] = ()) -> None:
    """Remove the entry ``card_id`` of ``kind`` from the pack (refused, with the
    problems, if something else in the chain refers to it)."""
    for entry in entries(folder):
        if entry.kind == kind and entry.id == card_id:
            data, _node = _read_file(entry.file)
            items = [i for i in data.get(kind) or []
                     if not (isinstance(i, dict) and entry_id(kind, i) == card_id)]
            rest = {k: v for k, v in data.items() if k != kind}
            if items:
                rest[kind] = items
            _change(folder, {entry.file: rest or None}, extra_dirs)
            return
    raise ContentError([ContentIssue(Path(folder), None, "",
                                     f"no {kind_word(kind)} {card_id!r} in this pack")])


# --- cards that travel with a campaign --------------------------------------------------


def card_digest(data: Mapping[str, Any]) -> str:
    """A short hash of an entry's data (key order and YAML layout do not count)."""
    import hashlib
    import json

    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def clean_entry(kind: str, data: Any) -> dict[str, Any]:
    """An entry as a pack file holds it once checked: defaults left out, the id first
    (ContentError if it does not validate)."""
    return _clean(validate_card(kind, data))


def pack_cards(folder: Path) -> dict[tuple[str, str], dict[str, Any]]:
    """Every entry with an id in the pack, ``(kind, id) -> data`` as :func:`clean_entry`
    gives it (entries that do not validate are left out: the loader reports them)."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for entry in entries(folder):
        if entry.kind not in KIND_MODELS:
            continue
        try:
            found[(entry.kind, entry.id)] = clean_entry(entry.kind, dict(entry.data))
        except ContentError:
            continue
    return found


@dataclass(frozen=True)
class CarriedPack:
    """A user pack as a campaign carries it: the pack itself where this data folder has
    it (``folder``), with the campaign's versions of its cards over it (``cards``:
    ``(kind, id) -> data``)."""

    manifest: PackManifest
    folder: Path | None
    cards: Mapping[tuple[str, str], Mapping[str, Any]]


def write_carried(root: Path, carried: Sequence[CarriedPack]) -> Path:
    """Write each carried pack under ``root`` (a folder of packs, for ``extra_dirs``,
    where it shadows the user's pack of the same id): a copy of the user's pack with
    the carried cards put in place of the pack's, or added. Returns ``root``."""
    import shutil

    import yaml

    root = Path(root)
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    for pack in carried:
        target = root / pack.manifest.id
        if pack.folder is not None and (pack.folder / MANIFEST).is_file():
            shutil.copytree(pack.folder, target,
                            ignore=shutil.ignore_patterns("*.tmp", ".*"))
        else:
            target.mkdir()
            _write_yaml(target / MANIFEST,
                        pack.manifest.model_dump(mode="json", exclude_defaults=True))
        waiting = dict(pack.cards)
        for entry in list(entries(target)):
            key = (entry.kind, entry.id)
            if key not in waiting:
                continue
            data, _node = _read_file(entry.file)
            data[entry.kind] = [dict(waiting[key]) if isinstance(i, dict)
                                and entry_id(entry.kind, i) == entry.id else i
                                for i in data.get(entry.kind) or []]
            _write_yaml(entry.file, data)
            del waiting[key]
        for (kind, _card_id), card in waiting.items():
            file = card_file(target, kind)
            try:
                data, _node = _read_file(file)
            except (OSError, UnicodeDecodeError, yaml.YAMLError, ValueError, TypeError):
                file = target / f"{kind}.carried.yaml"  # the pack's file does not read
                data, _node = _read_file(file)
            data[kind] = [*(data.get(kind) or []), dict(card)]
            _write_yaml(file, data)
    return root
