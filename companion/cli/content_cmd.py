"""``companion content ...``: check, list and import content packs.

- ``content check [PATH...]``: load and cross-check packs (every discovered pack when no
  PATH is given; a PATH is a pack folder or a folder of packs). Exit 0 with a one-line
  summary, or 1 with every problem as ``pack/file.yaml:LINE: field.path: message``.
- ``content list [--json]``: counts per component kind and pack (sealed kinds, the Codex
  and set-aside goals, are only counted).
- ``content import-crafting CSV... --pack DIR``: import community crafting-code files
  into a user pack, marked unverified.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion.cli.terminal import print_json, refuse, say


def register(subparsers: Any) -> None:
    """Add the ``content`` command family to the ``companion`` parser."""
    content = subparsers.add_parser("content", help="check, list and import content packs")
    sub = content.add_subparsers(dest="content_command", metavar="ACTION", required=True)

    check = sub.add_parser("check", help="validate content packs; exit 1 listing every error")
    check.add_argument("paths", nargs="*", type=Path, metavar="PATH",
                       help="a pack folder or a folder of packs (default: every pack found)")
    check.set_defaults(func=_check)

    listing = sub.add_parser("list", help="count components per kind and pack")
    listing.add_argument("--json", action="store_true", help="machine-readable output")
    listing.add_argument("--content", action="append", default=[], type=Path, metavar="PATH",
                         help="an extra content pack folder (may be repeated)")
    listing.set_defaults(func=_list)

    importer = sub.add_parser("import-crafting",
                              help="import community crafting CSV files into a user pack")
    importer.add_argument("csv", nargs="+", type=Path, metavar="CSV",
                          help="one ';'-separated file per pip colour (colour in the name)")
    importer.add_argument("--pack", required=True, type=Path, metavar="DIR",
                          help="the user pack folder to write (created if missing)")
    importer.add_argument("--extends", default="sample", metavar="ID",
                          help="pack a new user pack extends (default: sample)")
    importer.add_argument("--json", action="store_true", help="machine-readable report")
    importer.set_defaults(func=_import)

    from companion.cli.cards_cmd import register_content

    register_content(sub)  # add-card, remove-card, my-cards


def _pack_ids_under(path: Path) -> list[str] | None:
    """Pack ids in ``path`` (a pack, or a folder of packs); None if it holds none."""
    from companion.content.loader import MANIFEST
    from companion.content.yamlio import parse

    folders = [path] if (path / MANIFEST).is_file() else sorted(
        p for p in path.iterdir() if (p / MANIFEST).is_file()
    ) if path.is_dir() else []
    ids = []
    for folder in folders:
        try:
            data, _node = parse((folder / MANIFEST).read_text(encoding="utf-8"))
        except Exception:  # the loader reports it properly below
            data = None
        ids.append(str(data.get("id")) if isinstance(data, dict) else folder.name)
    return ids or None


def _check(args: argparse.Namespace) -> int:
    from companion.content import ContentError, discover_packs, load_content

    errors: list[str] = []
    loaded = []
    targets: list[tuple[str, list[Path]]] = []
    try:
        if args.paths:
            for path in args.paths:
                ids = _pack_ids_under(path)
                if ids is None:
                    errors.append(f"{path}: no content pack here (no pack.yaml)")
                    continue
                targets.extend((pack_id, [path]) for pack_id in ids)
        else:
            targets = [(m.id, []) for m in discover_packs()]
    except ContentError as exc:
        errors.extend(str(issue) for issue in exc.issues)
    for pack_id, extra in targets:
        try:
            loaded.append(load_content(pack_id, extra_dirs=extra))
        except ContentError as exc:
            errors.extend(str(issue) for issue in exc.issues)
    if errors:
        for line in dict.fromkeys(errors):  # a shared base pack is reported once
            say(line, err=True)
        say(f"content check: {len(dict.fromkeys(errors))} problem(s)", err=True)
        return 1
    summary = "; ".join(
        f"{' > '.join(f'{p.id} {p.version}' for p in c.packs)}: "
        f"{sum(c.counts().values())} components" for c in loaded
    )
    say(f"content OK: {len(loaded)} pack(s) ({summary or 'none found'})")
    return 0


def _list(args: argparse.Namespace) -> int:
    from companion.content import KINDS, ContentError, discover_packs, load_content

    packs: list[dict[str, Any]] = []
    problems: list[str] = []
    try:
        manifests = discover_packs(args.content)
    except ContentError as exc:
        return refuse(exc)
    for manifest in manifests:
        entry: dict[str, Any] = {"id": manifest.id, "name": manifest.name,
                                 "version": manifest.version, "extends": manifest.extends}
        try:
            content = load_content(manifest.id, extra_dirs=args.content)
        except ContentError as exc:
            problems.append(f"{manifest.id}: {len(exc.issues)} problem(s); "
                            f"run 'companion content check'")
            entry["error"] = f"{len(exc.issues)} problem(s)"
            packs.append(entry)
            continue
        entry["own"] = {k: content.pack_counts[manifest.id].get(k, 0) for k in KINDS}
        entry["total"] = content.counts()
        packs.append(entry)
    if args.json:
        print_json({"kinds": list(KINDS), "packs": packs})
    else:
        _print_table(packs)
    for line in problems:
        say(line, err=True)
    return 1 if problems else 0


def _print_table(packs: list[dict[str, Any]]) -> None:
    from companion.content import KINDS

    ok = [p for p in packs if "total" in p]
    heads = [f"{p['id']} {p['version']}" for p in ok]
    width = max(len(k) for k in KINDS)
    cols = [max(len(h), 6) for h in heads]
    say(" ".join([" " * width, *(h.rjust(c) for h, c in zip(heads, cols, strict=True))]))
    for kind in KINDS:
        cells = [f"{p['own'][kind]}/{p['total'][kind]}".rjust(c)
                 for p, c in zip(ok, cols, strict=True)]
        say(" ".join([kind.ljust(width), *cells]))
    say("(own/total: entries the pack itself contributes / after merging what it extends)")


def _import(args: argparse.Namespace) -> int:
    from companion.content import import_crafting_csv

    report = import_crafting_csv(args.csv, args.pack, extends=args.extends)
    if getattr(args, "json", False):
        print_json(report.as_dict())
        return 1 if report.problems else 0
    for row in report.rows if report.saved else ():
        say(f"  {row.action:<9} {row.code:<7} {row.why}  [{row.where}]")
    for line in report.problems:
        say(line, err=True)
    if not report.saved:
        say(f"nothing imported: {report.written} is unchanged", err=True)
        return 1
    entries = f"entr{'y' if report.imported == 1 else 'ies'}"
    skipped = [f"{n} {why}" for n, why in (
        (report.kept_verified, "already verified"), (report.repeated, "repeated"),
        (len(report.problems), "with problems")) if n]
    say(f"imported {report.imported} crafting {entries} (unverified) into {report.written}"
          f": {report.new} new, {report.updated} updated"
          + (f"; skipped {', '.join(skipped)}" if skipped else "")
          + ("; created pack.yaml" if report.created_manifest else ""))
    return 1 if report.problems else 0
