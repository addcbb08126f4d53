"""The validated-content cache (companion.content.cache): a campaign's packs load from
JSON when their files are unchanged, give exactly what validating the YAML gives, and
any change to a pack file, or a broken cache file, falls back to the YAML."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.content import ContentError, cache, load_content, loader
from companion.paths import shipped_content_dir


def cache_files() -> list[Path]:
    folder = cache.cache_file("x").parent
    return sorted(folder.glob("content-*.json")) if folder.is_dir() else []


def forget_this_process() -> None:
    cache._LOADED.clear()


def refuse_yaml(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_yaml(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the packs were read from YAML, not from the cache")

    monkeypatch.setattr(loader, "_load_entries", no_yaml)


def test_a_second_load_comes_from_the_json_and_is_exactly_the_validated_content(
        monkeypatch: pytest.MonkeyPatch) -> None:
    validated = load_content("sample")
    first = load_content("sample", cached=True)
    assert cache.same(first, validated)
    [file] = cache_files()
    data = json.loads(file.read_text(encoding="utf-8"))  # plain JSON, nothing to run
    assert data["format"] == cache.FORMAT and "hexes" in data["entries"]
    forget_this_process()
    refuse_yaml(monkeypatch)
    again = load_content("sample", cached=True)
    assert again is not first
    assert cache.same(again, validated)
    assert again.hexes.keys() == validated.hexes.keys()
    assert again.crafting.lookup("red", "1410").kind == validated.crafting.lookup(
        "red", "1410").kind


def test_the_same_packs_load_once_per_process(monkeypatch: pytest.MonkeyPatch) -> None:
    first = load_content("sample", cached=True)
    refuse_yaml(monkeypatch)
    assert load_content("sample", cached=True) is first


def test_a_changed_pack_file_is_read_again(tmp_path: Path) -> None:
    pack = tmp_path / "sample"
    shutil.copytree(shipped_content_dir() / "sample", pack)
    before = load_content("sample", extra_dirs=[pack], cached=True)
    regions = pack / "regions.yaml"
    if not regions.exists():
        regions = next(p for p in sorted(pack.rglob("*.yaml"))
                       if "regions:" in p.read_text(encoding="utf-8"))
    region = next(iter(before.regions.values()))
    text = regions.read_text(encoding="utf-8")
    assert f"name: {region.name}" in text
    regions.write_text(text.replace(f"name: {region.name}", "name: Renamed Vale", 1),
                       encoding="utf-8")
    after = load_content("sample", extra_dirs=[pack], cached=True)
    assert after.regions[region.id].name == "Renamed Vale"
    assert len(cache_files()) == 2


def test_a_broken_cache_file_is_ignored() -> None:
    validated = load_content("sample")
    load_content("sample", cached=True)
    [file] = cache_files()
    data = json.loads(file.read_text(encoding="utf-8"))
    data["entries"]["hexes"][0][1] = {"not a field": 1}
    file.write_text(json.dumps(data), encoding="utf-8")
    forget_this_process()
    assert cache.same(load_content("sample", cached=True), validated)
    file.write_text("{ not json", encoding="utf-8")
    forget_this_process()
    assert cache.same(load_content("sample", cached=True), validated)


def test_a_broken_pack_is_refused_and_not_cached(tmp_path: Path) -> None:
    pack = tmp_path / "sample"
    shutil.copytree(shipped_content_dir() / "sample", pack)
    (pack / "broken.yaml").write_text("materials:\n  - {id: flint}\n", encoding="utf-8")
    with pytest.raises(ContentError):
        load_content("sample", extra_dirs=[pack], cached=True)
    assert cache_files() == []


def test_same_tells_types_apart() -> None:
    content = load_content("sample")
    hexes = list(content.hexes.values())
    assert cache.same(hexes[0], hexes[0].model_copy())
    assert not cache.same((1, 2), [1, 2])
    assert not cache.same({"a": 1}, {"a": 1.0})
    assert not cache.same(hexes[0], hexes[1])
