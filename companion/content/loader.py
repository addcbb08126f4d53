"""Finding packs, reading their YAML, merging along ``extends`` and cross-checking.

Every problem becomes a ``ContentIssue``; all of them are raised together as one
``ContentError`` at the end, so an owner fixes a pack in one pass. Nothing else escapes
for bad input.
"""

from __future__ import annotations

import functools
import gc
import typing
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

from companion.content import yamlio
from companion.content.chain import Entry, PackDir, PackDoc, build_content, entry_key
from companion.content.errors import ContentError, ContentIssue, issue_message
from companion.content.model import Content
from companion.content.schema.base import Ref
from companion.content.schema.pack import KIND_MODELS, KINDS, PackManifest
from companion.content.schema.rules import RulesConstants
from companion.content.schema.world import OverlayKind

if TYPE_CHECKING:
    pass  # imported where a pack is parsed: a cached load never needs it

MANIFEST = "pack.yaml"
RULES = "rules.yaml"


@dataclass
class _Run:
    """State of one load: the issues found so far."""

    issues: list[ContentIssue] = field(default_factory=list)

    def add(self, file: Path, line: int | None, path: str, message: str) -> None:
        self.issues.append(ContentIssue(file, line, path, message))

    def at(self, doc: PackDoc, loc: Sequence[str | int], message: str) -> None:
        line, shown = yamlio.locate(doc.node, loc)
        self.issues.append(ContentIssue(doc.file, line, ".".join(shown), message,
                                        pack_dir=doc.pack_dir))

    def validation(self, doc: PackDoc, error: ValidationError,
                   prefix: tuple[str | int, ...] = ()) -> None:
        for detail in error.errors(include_url=False):
            self.at(doc, prefix + tuple(detail["loc"]), issue_message(detail))


# --- discovery ----------------------------------------------------------------------


def _read(run: _Run, file: Path) -> PackDoc | None:
    import yaml

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        run.add(file, None, "", f"cannot read the file: {exc}")
        return None
    try:
        data = yamlio.load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "bad YAML"
        run.add(file, mark.line + 1 if mark else None, "", f"YAML syntax: {problem}")
        return None
    except yaml.YAMLError as exc:
        run.add(file, None, "", f"YAML syntax: {exc}")
        return None
    except (RecursionError, ValueError, TypeError, OverflowError) as exc:
        run.add(file, None, "", f"cannot read the YAML: {exc}")
        return None
    return PackDoc(file, data, text)


def _roots(extra_dirs: Sequence[Path]) -> list[Path]:
    """The folders packs are found in (a pack, or a folder of packs), in shadowing order."""
    from companion.content.cache_file import pack_roots

    return pack_roots(extra_dirs)


def _candidate_dirs(extra_dirs: Sequence[Path]) -> Iterator[tuple[int, Path]]:
    for level, root in enumerate(_roots(extra_dirs)):
        if (root / MANIFEST).is_file():
            yield level, root
        elif root.is_dir():
            for sub in sorted(p for p in root.iterdir() if (p / MANIFEST).is_file()):
                yield level, sub


def _discover(run: _Run, extra_dirs: Sequence[Path]) -> dict[str, PackDir]:
    """Packs by id. A pack found later (the user's folder, then ``--content``) shadows a
    shipped pack with the same id, so an owner can try a fixed copy of a pack; two
    packs with one id in the same place are an error."""
    found: dict[str, PackDir] = {}
    levels: dict[str, int] = {}
    for level, folder in _candidate_dirs(extra_dirs):
        doc = _read(run, folder / MANIFEST)
        if doc is None:
            continue
        if not isinstance(doc.data, dict):
            run.at(doc, (), "pack.yaml is a mapping with id, name and version")
            continue
        try:
            manifest = PackManifest.model_validate(doc.data)
        except ValidationError as exc:
            run.validation(doc, exc)
            continue
        other = found.get(manifest.id)
        if other is not None and other.folder.resolve() == folder.resolve():
            continue
        if other is not None and levels[manifest.id] == level:
            run.at(doc, ("id",), f"pack id {manifest.id!r} is also used by {other.folder}")
            continue
        found[manifest.id] = PackDir(manifest, folder)
        levels[manifest.id] = level
    return found


def discover_packs(extra_dirs: Sequence[Path] = ()) -> list[PackManifest]:
    """Manifests of every pack found: shipped (``content/``), the user's, and
    ``extra_dirs`` (a folder with ``pack.yaml`` is a pack, otherwise its subfolders are).

    Raises ``ContentError`` if a manifest is broken.
    """
    run = _Run()
    found = _discover(run, extra_dirs)
    if run.issues:
        raise ContentError(run.issues)
    return [pack.manifest for pack in found.values()]


def _chain(run: _Run, found: dict[str, PackDir], pack_id: str) -> list[PackDir]:
    chain: list[PackDir] = []
    current: str | None = pack_id
    while current is not None:
        pack = found.get(current)
        if pack is None:
            where = chain[-1].folder / MANIFEST if chain else Path(pack_id)
            line = None
            if chain:
                doc = _read(run, where)
                line = yamlio.locate(doc.node if doc else None, ("extends",))[0]
            known = ", ".join(sorted(found)) or "none"
            run.add(where, line, "extends" if chain else "",
                    f"no pack with id {current!r} was found (packs found: {known})")
            return []
        if any(p is pack for p in chain):
            run.add(pack.folder / MANIFEST, None, "extends",
                    f"packs extend each other in a circle ({current!r})")
            return []
        chain.append(pack)
        current = pack.manifest.extends
    chain.reverse()
    return chain


# --- merging ------------------------------------------------------------------------


def _show_key(key: Any) -> str:
    return " ".join(str(part) for part in key) if isinstance(key, tuple) else str(key)


def _deep_merge(base: dict[Any, Any], over: dict[Any, Any]) -> dict[Any, Any]:
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _deep_merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _pack_files(folder: Path) -> list[Path]:
    return sorted(
        p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
        and p.name != MANIFEST
    )


def _raw_key(kind: str, data: Any) -> Any:
    """The key an entry that failed validation would have had, if it can be told."""
    if not isinstance(data, dict):
        return None
    if kind == "crafting":
        key: Any = (data.get("colour"), str(data.get("code")))
    elif kind == "codex_omen_entries":
        key = (data.get("omen"), str(data.get("component")))
    elif kind == "codex_outcomes":
        number = data.get("number")
        key = f"{number:03d}" if type(number) is int else number
    else:
        key = data.get("id")
    try:
        hash(key)
    except TypeError:  # an id written as a list or mapping
        return None
    return key


def _validate_file(run: _Run, doc: PackDoc, broken: dict[str, dict[Any, Any]]) -> Iterator[
    tuple[str, int, BaseModel]
]:
    """Each valid entry of a component file. Entries are validated one by one, so one
    bad entry does not hide the rest of the file; the keys of bad entries go to
    ``broken`` so that references to them do not report a second, misleading error."""
    for kind, items in doc.data.items():
        if kind not in KIND_MODELS:
            run.at(doc, (kind,), f"unknown component kind {kind!r}; a pack file holds: "
                   + ", ".join(KINDS))
            continue
        if items is None:
            continue
        if not isinstance(items, list):
            run.at(doc, (kind,), f"{kind} is a list of entries, not a {type(items).__name__}")
            continue
        model_cls = KIND_MODELS[kind]
        for index, item in enumerate(items):
            try:
                yield kind, index, model_cls.model_validate(item)
            except ValidationError as exc:
                run.validation(doc, exc, (kind, index))
                broken[kind][_raw_key(kind, item)] = item
            except (RecursionError, ValueError, TypeError) as exc:
                run.at(doc, (kind, index), f"cannot read this entry: {exc}")
                broken[kind][_raw_key(kind, item)] = item


def _load_chain(run: _Run, chain: list[PackDir], broken: dict[str, dict[Any, Any]]) -> tuple[
    list[PackDoc], dict[str, dict[Any, Entry]]
]:
    rules_docs: list[PackDoc] = []
    entries: dict[str, dict[Any, Entry]] = {kind: {} for kind in KINDS}
    for pack in chain:
        defined_here: dict[tuple[str, Any], Entry] = {}
        for kind in pack.manifest.replaces:  # this pack's list stands alone
            entries[kind] = {}
        for file in _pack_files(pack.folder):
            doc = _read(run, file)
            if doc is None:
                continue
            doc.pack_id = pack.manifest.id
            doc.pack_dir = pack.folder
            if file.name == RULES and file.parent == pack.folder:
                if isinstance(doc.data, dict):
                    rules_docs.append(doc)
                elif doc.data is not None:
                    run.at(doc, (), "rules.yaml is a mapping of rule constants")
                continue
            if doc.data is None:
                continue
            if not isinstance(doc.data, dict):
                run.at(doc, (), "a component file is a mapping of component kinds "
                                "(materials:, items: ...) to lists")
                continue
            for kind, index, model in _validate_file(run, doc, broken):
                key = entry_key(kind, model)
                entry = Entry(model, doc, (kind, index))
                first = defined_here.get((kind, key))
                if first is not None:
                    line = yamlio.locate(first.doc.node, first.loc)[0]
                    run.at(doc, entry.loc, f"{kind} {_show_key(key)!r} is defined twice "
                           f"in this pack (first in {first.doc.file.name}, line {line})")
                    continue
                defined_here[(kind, key)] = entry
                entries[kind][key] = entry  # replaces the extended pack's entry
    return rules_docs, entries


def _load_rules(run: _Run, docs: list[PackDoc], chain: list[PackDir]) -> RulesConstants | None:
    if not docs:
        run.add(chain[-1].folder, None, "", "no rules.yaml in this pack or the packs it extends")
        return None
    merged: dict[Any, Any] = {}
    for doc in docs:
        merged = _deep_merge(merged, doc.data)
    try:
        return RulesConstants.model_validate(merged)
    except ValidationError as exc:
        for detail in exc.errors(include_url=False):
            loc = tuple(detail["loc"])
            # Blame the last pack whose rules.yaml reaches deepest into the path.
            best = max(reversed(docs), key=lambda d: len(yamlio.locate(d.node, loc)[1]))
            run.at(best, loc, issue_message(detail))
    except (RecursionError, ValueError, TypeError) as exc:
        run.add(docs[-1].file, None, "", f"cannot read the rules: {exc}")
    return None


# --- cross-checks -------------------------------------------------------------------


def _may_hold_refs(annotation: Any) -> bool:
    """Whether a field's type can contain a ``Ref`` (directly or in a nested model)."""
    if isinstance(annotation, type):
        if issubclass(annotation, Ref):
            return True
        if issubclass(annotation, BaseModel):
            return bool(_ref_fields(annotation))
    return any(_may_hold_refs(arg) for arg in typing.get_args(annotation))


@functools.cache
def _ref_fields(cls: type[BaseModel]) -> tuple[str, ...]:
    """Names of the fields of ``cls`` worth walking for references (cached per class:
    the walk runs over every entry, and most fields are plain text or numbers)."""
    return tuple(name for name, info in cls.model_fields.items()
                 if _may_hold_refs(info.annotation))


def _refs(value: Any, path: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], Ref]]:
    if isinstance(value, Ref):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in _ref_fields(type(value)):
            yield from _refs(getattr(value, name), (*path, name))
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from _refs(item, (*path, index))
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, Ref):
                yield (*path, str(key)), key
            yield from _refs(item, (*path, str(key)))


_KIND_WORDS = {
    "resources": "material, food or water",
    "codex_outcomes": "Codex outcome",
    "forage_bonuses": "forage bonus",
    "*": "component",
}


def _cross_check(run: _Run, entries: dict[str, dict[Any, Entry]],
                 rules: RulesConstants | None, rules_docs: list[PackDoc],
                 broken: dict[str, dict[Any, Any]]) -> None:
    # An entry that failed validation was reported already: references to it are fine.
    ids: dict[str, set[Any]] = {
        kind: set(found) | set(broken[kind]) for kind, found in entries.items()
    }
    ids["resources"] = ids["materials"] | ids["foods"]
    ids["*"] = set().union(*(
        found for kind, found in ids.items()
        if kind not in ("crafting", "codex_outcomes", "codex_omen_entries", "resources")
    ))
    for found in entries.values():
        for entry in found.values():
            for sub, ref in _refs(entry.model, ()):
                if ref not in ids[ref.kind]:
                    word = _KIND_WORDS.get(ref.kind, ref.kind.rstrip("s").replace("_", " "))
                    run.at(entry.doc, entry.loc + sub, f"no {word} with id {str(ref)!r}")
    _check_world(run, entries, broken)
    _check_cards(run, entries)
    if rules is not None:
        _check_pip_colours(run, entries, rules)
        for index, threshold in enumerate(rules.unrest_thresholds):
            goal = threshold.epoch_goal
            if goal is not None and goal not in ids["goals"]:
                doc = max(reversed(rules_docs), key=lambda d: len(
                    yamlio.locate(d.node, ("unrest_thresholds", index, "epoch_goal"))[1]))
                run.at(doc, ("unrest_thresholds", index, "epoch_goal"),
                       f"no goal with id {goal!r}")


def _check_pip_colours(run: _Run, entries: dict[str, dict[Any, Entry]],
                       rules: RulesConstants) -> None:
    """Every pip and crafting entry shows a colour the rules file lists (pip_colours)."""
    listed = set(rules.crafting.pip_colours)
    names = ", ".join(c.value for c in rules.crafting.pip_colours)
    for entry in entries["materials"].values():
        material: Any = entry.model
        for side in ("unprocessed", "processed"):
            for edge, pip in getattr(material, side).edges.items():
                if pip is not None and pip.colour not in listed:
                    run.at(entry.doc, entry.loc + (side, "edges", edge.value),
                           f"{pip.colour.value} is not among the rules file's pip "
                           f"colours ({names})")
    for entry in entries["crafting"].values():
        colour = entry.model.colour  # type: ignore[attr-defined]
        if colour not in listed:
            run.at(entry.doc, entry.loc + ("colour",),
                   f"{colour.value} is not among the rules file's pip colours ({names})")


def _check_world(run: _Run, entries: dict[str, dict[Any, Entry]],
                 broken: dict[str, dict[Any, Any]]) -> None:
    starting: dict[str, list[Entry]] = {key: [] for key in entries["regions"]}
    # A region with a hex that failed validation may have lost its starting hex there.
    unsure = {raw.get("region") for raw in broken["hexes"].values()
              if isinstance(raw, dict) and isinstance(raw.get("region"), str)}
    for entry in entries["hexes"].values():
        tile: Any = entry.model
        if tile.starting and tile.region in starting:
            starting[tile.region].append(entry)
    for region, tiles in starting.items():
        # A region whose tiles are typed as the table places them (it gives `tiles`) may
        # not know its starting hex yet, and never does if the valley only explores into it.
        typed = entries["regions"][region].model.tiles is not None  # type: ignore[attr-defined]
        if len(tiles) > 1 or (len(tiles) == 0 and not typed and region not in unsure):
            region_entry = entries["regions"][region]
            run.at(region_entry.doc, region_entry.loc,
                   f"region {region!r} has {len(tiles)} starting hexes; it needs exactly one")
    for entry in entries["behemoths"].values():
        lair = entries["overlays"].get(entry.model.lair)  # type: ignore[attr-defined]
        if lair is not None and lair.model.kind is not OverlayKind.LAIR:  # type: ignore[attr-defined]
            run.at(entry.doc, entry.loc + ("lair",), "the lair overlay is not of kind lair")


def _check_cards(run: _Run, entries: dict[str, dict[Any, Entry]]) -> None:
    objects = entries["forage_objects"]
    for entry in entries["forage_cards"].values():
        card: Any = entry.model
        for row in ("front", "middle", "back"):
            for index, spot in enumerate(getattr(card.rows, row)):
                obj = objects.get(spot.object)
                if obj is not None and card.deck not in obj.model.decks:  # type: ignore[attr-defined]
                    run.at(entry.doc, entry.loc + ("rows", row, index, "object"),
                           f"{spot.object!r} does not appear in the {card.deck} deck")
    icons = {entry.model.icon for entry in entries["delving_cards"].values()}  # type: ignore[attr-defined]
    for entry in entries["delving_cards"].values():
        paths_: Any = entry.model.paths  # type: ignore[attr-defined]
        if paths_ is None:
            continue
        for side in ("left", "right"):
            if getattr(paths_, side) not in icons:
                run.at(entry.doc, entry.loc + ("paths", side),
                       f"no delving card shows the icon {getattr(paths_, side)!r}")
    goals = entries["goals"]
    for entry in entries["challenges"].values():
        challenge: Any = entry.model
        for field_name, want in (("vital_goals", False), ("epoch_goals", False),
                                 ("set_aside_goals", True)):
            for index, goal_id in enumerate(getattr(challenge, field_name)):
                goal = goals.get(goal_id)
                if goal is not None and goal.model.set_aside is not want:  # type: ignore[attr-defined]
                    state = "is set aside" if not want else "is not marked set_aside"
                    run.at(entry.doc, entry.loc + (field_name, index),
                           f"goal {goal_id!r} {state}")
    for kind in ("instinct_cards", "secret_cards", "reaction_cards"):
        have = {entry.model.behemoth for entry in entries[kind].values()}  # type: ignore[attr-defined]
        for key, entry in entries["behemoths"].items():
            if key not in have:
                run.at(entry.doc, entry.loc, f"behemoth {key!r} has no {kind.replace('_', ' ')}")


@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a pack loads.

    Loading allocates tens of thousands of small, acyclic objects (YAML scalars, dicts,
    models); each allocation burst triggers full collections that find nothing and,
    measured on the 10x bench pack, cost about a third of the load time.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_content(pack_id: str = "sample", extra_dirs: Sequence[Path] = (), *,
                 cached: bool = False) -> Content:
    """Load the pack ``pack_id`` and the packs it extends, merged and cross-checked.

    Packs are found in the shipped ``content/`` folder, the user's content folder and
    ``extra_dirs``. A pack that extends another adds entries or replaces those with the
    same ID; ``rules.yaml`` is merged key by key. Raises ``ContentError`` listing every
    problem, each as ``pack/file.yaml:LINE: field.path: message``.

    ``cached=True`` (opening a campaign) reuses the validated form of a chain whose
    files have not changed since it last loaded (see :mod:`companion.content.cache`).
    """
    with _gc_paused():
        if cached:
            return _load_cached(pack_id, extra_dirs)
        return _load_content(pack_id, extra_dirs)


def _load_cached(pack_id: str, extra_dirs: Sequence[Path]) -> Content:
    from companion.content import cache
    from companion.content.cache_file import cache_key

    roots = _roots(extra_dirs)
    key = cache_key(pack_id, roots)
    content: Content | None = cache.recall(key) or cache.load(key)
    if content is None:
        rules, chain, entries = _load_entries(pack_id, extra_dirs)
        content = build_content(rules, chain, entries)
        cache.save(key, rules, chain, entries, content)
    cache.remember(key, content, (pack_id, roots))
    return content


def _load_content(pack_id: str, extra_dirs: Sequence[Path]) -> Content:
    return build_content(*_load_entries(pack_id, extra_dirs))


def _load_entries(pack_id: str, extra_dirs: Sequence[Path]) -> tuple[
    RulesConstants, list[PackDir], dict[str, dict[Any, Entry]]
]:
    # A broken manifest elsewhere only matters if the chain cannot be resolved.
    discovery = _Run()
    found = _discover(discovery, extra_dirs)
    run = _Run()
    chain = _chain(run, found, pack_id)
    if not chain:
        raise ContentError(discovery.issues + run.issues)
    broken: dict[str, dict[Any, Any]] = {kind: {} for kind in KINDS}
    rules_docs, entries = _load_chain(run, chain, broken)
    rules = _load_rules(run, rules_docs, chain)
    _cross_check(run, entries, rules, rules_docs, broken)
    if run.issues or rules is None:
        raise ContentError(run.issues)
    return rules, chain, entries


def load_pack_dir(folder: Path) -> Content:
    """Load the pack in ``folder`` (with the packs it extends): what ``content check
    PATH`` does."""
    run = _Run()
    doc = _read(run, Path(folder) / MANIFEST)
    if doc is None:
        if not run.issues:
            run.add(Path(folder), None, "", "no pack.yaml in this folder")
        raise ContentError(run.issues)
    pack_id = doc.data.get("id") if isinstance(doc.data, dict) else None
    if not isinstance(pack_id, str):
        run.at(doc, ("id",), "pack.yaml names the pack's id")
        raise ContentError(run.issues)
    return load_content(pack_id, extra_dirs=[Path(folder)])

