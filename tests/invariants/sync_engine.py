"""A simulated sync engine (issue 38): each machine's own copy of the shared folder, kept
in step the way Syncthing, Dropbox or Drive really keep them.

Every tick the engine looks at each machine's copy, picks up what the machine wrote or
deleted there since, and delivers it to the other machines' copies after a random delay:
files arrive late and out of order, some twice, some first cut short (the rest follows),
some beside a conflict copy in one of the engines' spellings, and the folders gather the
files systems leave (``desktop.ini``, ``.DS_Store``). A machine taken offline (its copy
unplugged: the folder is gone) sends and receives nothing until it is back.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

COPY_NAMES = (
    "{stem} (Cai's conflicted copy 2026-11-27).json",
    "{stem}.sync-conflict-20261127-140203-ABCDEFG.json",
    "{stem} (conflicted copy 2026-11-27 140203).json",
    "{stem}-KITCHEN-PC.json",
    "{stem} (1).json",
)
FOREIGN = ("desktop.ini", ".DS_Store", "Thumbs.db")


@dataclass(order=True)
class Delivery:
    due: int
    serial: int
    target: str = field(compare=False)
    relative: str = field(compare=False)
    data: bytes | None = field(compare=False)
    """None: the file was deleted where it was written."""


@dataclass
class Engine:
    """The engine between the machines' copies (``views``: machine -> its copy)."""

    rng: random.Random
    views: dict[str, Path]
    max_delay: int = 6
    tick_no: int = 0
    queue: list[Delivery] = field(default_factory=list)
    known: dict[str, dict[str, bytes]] = field(default_factory=dict)
    """What each copy held when the engine last looked (or delivered)."""
    offline: dict[str, int] = field(default_factory=dict)
    """Machine -> the tick its copy comes back."""
    serial: int = 0
    counts: dict[str, int] = field(default_factory=dict)

    def _count(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    def _files(self, view: Path) -> dict[str, bytes]:
        found: dict[str, bytes] = {}
        for path in view.rglob("*"):
            if path.is_file() and not path.name.startswith(".") \
                    and not path.name.endswith(".tmp"):
                found[str(path.relative_to(view))] = path.read_bytes()
        return found

    def _send(self, source: str, relative: str, data: bytes | None) -> None:
        if data is None:
            # A deletion supersedes the file's copies still on their way (a second copy,
            # the rest of one cut short), as a real engine's index does: it never brings
            # back a file its writer removed.
            self.queue = [d for d in self.queue
                          if d.relative != relative or d.target == source]
        for target in self.views:
            if target == source:
                continue
            self.serial += 1
            due = self.tick_no + self.rng.randint(0, self.max_delay)
            self.queue.append(Delivery(due, self.serial, target, relative, data))
            if data is not None and self.rng.random() < 0.1:  # arrives twice
                self.serial += 1
                self.queue.append(Delivery(due + self.rng.randint(1, self.max_delay),
                                           self.serial, target, relative, data))
                self._count("delivered twice")

    def look(self) -> None:
        """Pick up what each online machine wrote or deleted in its copy."""
        for name, view in self.views.items():
            if name in self.offline or not view.is_dir():
                continue
            now = self._files(view)
            before = self.known.setdefault(name, {})
            for relative, data in now.items():
                if before.get(relative) != data:
                    self._send(name, relative, data)
            for relative in set(before) - set(now):
                self._send(name, relative, None)
                if Path(relative).name.startswith("ops-"):
                    self._count("segments pruned by their machine")
            self.known[name] = now

    def deliver(self, *, whole: bool = False) -> None:
        """Deliver what is due to the machines online (``whole``: everything, as is)."""
        waiting: list[Delivery] = []
        for item in sorted(self.queue):
            if item.target in self.offline or (item.due > self.tick_no and not whole):
                waiting.append(item)
                continue
            self._put(item, whole=whole, later=waiting)
        self.queue = waiting

    def _put(self, item: Delivery, *, whole: bool, later: list[Delivery]) -> None:
        view = self.views[item.target]
        path = view / item.relative
        mine = self.known.setdefault(item.target, {})
        if item.data is None:
            path.unlink(missing_ok=True)
            mine.pop(item.relative, None)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        data = item.data
        if not whole and len(data) > 20 and self.rng.random() < 0.1:  # cut short first
            data = data[: self.rng.randrange(1, len(data) - 1)]
            self.serial += 1
            later.append(Delivery(self.tick_no + self.rng.randint(1, 3), self.serial,
                                  item.target, item.relative, item.data))
            self._count("cut short on arrival")
        path.write_bytes(data)
        mine[item.relative] = data
        if not whole and self.rng.random() < 0.08 and path.name.endswith(".json"):
            copy = path.with_name(self.rng.choice(COPY_NAMES).format(stem=path.stem))
            copy.write_bytes(item.data)
            mine[str(copy.relative_to(view))] = item.data
            self._count("conflict copies")
        if not whole and self.rng.random() < 0.03:
            foreign = path.parent / self.rng.choice(FOREIGN)
            foreign.write_bytes(b"[.ShellClassInfo]\n")
            mine[str(foreign.relative_to(view))] = b"[.ShellClassInfo]\n"
            self._count("foreign files")

    def tick(self) -> None:
        """One moment of the engine: machines come back online, it looks, it delivers."""
        self.tick_no += 1
        for name, back in list(self.offline.items()):
            if back <= self.tick_no:
                self.plug_in(name)
        self.look()
        self.deliver()

    def unplug(self, name: str, ticks: int) -> None:
        """Take a machine's copy away (an unplugged stick) for ``ticks``."""
        if name in self.offline:
            return
        self.look()
        view = self.views[name]
        view.rename(view.with_name(view.name + ".unplugged"))
        self.offline[name] = self.tick_no + ticks
        self._count("offline stretches")

    def plug_in(self, name: str) -> None:
        view = self.views[name]
        away = view.with_name(view.name + ".unplugged")
        if away.exists():
            away.rename(view)
        self.offline.pop(name, None)

    def settle(self) -> None:
        """Everyone online, everything delivered whole."""
        for name in list(self.offline):
            self.plug_in(name)
        self.look()
        self.deliver(whole=True)
        self.look()
