"""Reading a big JSON file a piece at a time: the export's envelope as a stream.

An export of a year of play is hundreds of megabytes; ``json.loads`` of it takes gigabytes
of memory. :class:`JsonStream` reads the file in chunks and hands out one value at a time
(``value()``), or walks the maps and lists around the values (``members()``,
``elements()``), so memory holds one row of a table, never the file. Each value is
decoded by the standard library's own (C) decoder, ``JSONDecoder.raw_decode``, on the
text buffered so far: a value cut by the end of a chunk is decoded again once more text
is read. Whitespace anywhere, any order of keys and any number of rows per line are
read alike; what is not JSON is refused (:class:`JsonProblem`) as ``json.loads`` would.
"""

from __future__ import annotations

import codecs
import json
import re
from collections import deque
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

CHUNK_BYTES = 1 << 20
"""Bytes read from the file at a time."""

_SPACE = re.compile(r"[ \t\n\r]*")
_SUSPECT_OVERLAP = 64
"""Bytes read before a chunk that ``suspect`` sees again: what it looks for is shorter."""
_CUT_MARGIN = 16
"""A decoding error this close to the end of the buffered text may be a value cut short
by the chunk (``tru``, ``"\\u00``, ``1e``): read more before calling it an error."""


class JsonProblem(ValueError):
    """What is wrong with the file, in words (the caller names the file)."""


class JsonStream:
    """One JSON document from ``handle`` (a file opened in binary mode), read in chunks.

    ``max_value`` bounds the text of any one value (and so the memory a value can take);
    ``progress(bytes_read)`` is called after each chunk. A UTF-8 byte order mark at the
    start is skipped, as ``utf-8-sig`` does. ``suspect(raw_bytes)`` is asked of each
    chunk (with the bytes before it, for what spans both): a value read from a
    chunk it flags is said to be flagged (:meth:`value_and_text`), so a caller can look
    closely at those values only.
    """

    def __init__(self, handle: BinaryIO, *, max_value: int,
                 progress: Callable[[int], None] | None = None,
                 suspect: Callable[[bytes], bool] | None = None) -> None:
        self._handle = handle
        self._utf8 = codecs.getincrementaldecoder("utf-8")("strict")
        self._decoder = json.JSONDecoder()
        self._text = ""
        self._pos = 0
        self._dropped = 0  # characters of the file before ``_text``
        self._eof = False
        self._bom_checked = False
        self._max_value = max_value
        self._progress = progress
        self._suspect = suspect
        self._flagged: deque[tuple[int, int]] = deque()  # (from, to) characters of the file
        self._tail = b""  # the last bytes read before this chunk
        self.bytes_read = 0

    # --- the buffer ------------------------------------------------------------------------

    def _fill(self, at_least: int = 0) -> bool:
        """Read more of the file (at least ``at_least`` bytes); False at its end."""
        if self._eof:
            return False
        if self._pos:
            self._dropped += self._pos
            self._text, self._pos = self._text[self._pos:], 0
        try:
            data = self._handle.read(max(at_least, CHUNK_BYTES))
            piece = self._utf8.decode(data, final=not data)
        except UnicodeDecodeError as exc:
            raise JsonProblem(f"it is not a readable JSON file (it is not UTF-8 text: "
                              f"{exc.reason} near byte {self.bytes_read + exc.start})") from None
        self.bytes_read += len(data)
        self._eof = not data
        if piece and not self._bom_checked:
            piece = piece.removeprefix("\ufeff")  # utf-8-sig: a byte order mark is fine
            self._bom_checked = True
        start = self._dropped + len(self._text)
        self._text += piece
        if self._suspect is not None and data:
            seen = self._tail + data
            if self._suspect(seen):
                # From where the bytes seen again begin (no more characters than bytes).
                self._flagged.append((start - len(self._tail), start + len(piece)))
            self._tail = seen[-_SUSPECT_OVERLAP:]
        if self._progress is not None and data:
            self._progress(self.bytes_read)
        return bool(data)

    def _where(self, pos: int) -> str:
        return f"character {self._dropped + pos}"

    def _skip_space(self) -> None:
        while True:
            self._pos = _SPACE.match(self._text, self._pos).end()  # type: ignore[union-attr]
            if self._pos < len(self._text) or not self._fill():
                return

    def peek(self) -> str:
        """The next character that is not whitespace ("" at the end of the file)."""
        self._skip_space()
        return self._text[self._pos] if self._pos < len(self._text) else ""

    def expect(self, allowed: str, what: str) -> str:
        """Take the next non-space character, one of ``allowed`` (``what`` names them)."""
        found = self.peek()
        if not found or found not in allowed:
            shown = repr(found) if found else "the end of the file"
            raise JsonProblem(f"it is not a readable JSON file (expected {what} at "
                              f"{self._where(self._pos)}, found {shown})")
        self._pos += 1
        return found

    # --- values ------------------------------------------------------------------------------

    def _cut_short(self, exc: json.JSONDecodeError) -> bool:
        return not self._eof and (exc.pos >= len(self._text) - _CUT_MARGIN
                                  or exc.msg.startswith("Unterminated string"))

    def _grow(self) -> bool:
        """Read more for a value that does not end in the buffered text yet."""
        pending = len(self._text) - self._pos
        if pending > self._max_value:
            self._too_long()
        return self._fill(at_least=pending)  # doubling: linear time for a long value

    def _too_long(self) -> None:
        raise JsonProblem(f"one value in it is longer than {self._max_value // 2**20} MiB "
                          "of text, more than any campaign holds")

    def value(self) -> Any:
        """The next whole JSON value (a header field, a list of columns)."""
        return self.value_and_text()[0]

    def _is_flagged(self, start: int, end: int) -> bool:
        """Whether characters ``start`` to ``end`` of the buffer overlap a flagged chunk."""
        start, end = start + self._dropped, end + self._dropped
        while self._flagged and self._flagged[0][1] <= start:
            self._flagged.popleft()
        return bool(self._flagged) and self._flagged[0][0] < end

    def value_and_text(self) -> tuple[Any, str, bool]:
        """The next whole JSON value, its text as the file writes it, and whether it
        comes from a chunk ``suspect`` flagged (a row's text and flag tell whether it
        needs a closer look: ``portable_rows.needs_plain_check``)."""
        self._skip_space()
        while True:
            try:
                found, end = self._decoder.raw_decode(self._text, self._pos)
            except json.JSONDecodeError as exc:
                if self._cut_short(exc) and self._grow():
                    continue
                raise JsonProblem(f"it is not a readable JSON file ({exc.msg} at "
                                  f"{self._where(exc.pos)})") from None
            except RecursionError:
                raise JsonProblem("it is nested too deeply to be a campaign") from None
            except ValueError as exc:  # an integer of more than 4,300 digits
                raise JsonProblem(f"it holds a value no campaign has ({exc})") from None
            if end == len(self._text) and self._grow():
                continue  # a number may go on in the next chunk: decode it whole
            if end - self._pos > self._max_value:
                self._too_long()
            start, self._pos = self._pos, end
            return found, self._text[start:end], self._is_flagged(start, end)

    # --- maps and lists ----------------------------------------------------------------------

    def members(self) -> Iterator[str]:
        """The keys of the map that starts here, one at a time; after each, the caller
        reads (or walks) that key's value before asking for the next key."""
        self.expect("{", "'{'")
        if self.peek() == "}":
            self._pos += 1
            return
        while True:
            if self.peek() != '"':
                self.expect('"', "a name in double quotes")
            key = self.value()
            self.expect(":", "':'")
            yield key
            if self.expect(",}", "',' or '}'") == "}":
                return

    def elements(self) -> Iterator[int]:
        """The positions (0, 1, ...) of the list that starts here; after each, the caller
        reads that element before asking for the next."""
        self.expect("[", "'['")
        if self.peek() == "]":
            self._pos += 1
            return
        index = 0
        while True:
            yield index
            index += 1
            if self.expect(",]", "',' or ']'") == "]":
                return

    def values_of_list(self) -> Iterator[tuple[Any, str, bool]]:
        """Each value of the list that starts here, as :meth:`value_and_text` gives it:
        the rows of a table, read in one tight loop (a year of history is a million)."""
        self.expect("[", "'['")
        if self.peek() == "]":
            self._pos += 1
            return
        space = _SPACE.match
        while True:
            yield self.value_and_text()
            pos = space(self._text, self._pos).end()  # type: ignore[union-attr]
            if pos < len(self._text) and self._text[pos] == ",":
                self._pos = pos + 1
                continue
            if self.expect(",]", "',' or ']'") == "]":
                return

    def at_list(self) -> bool:
        """Whether the next value is a list."""
        return self.peek() == "["

    def at_map(self) -> bool:
        """Whether the next value is a map."""
        return self.peek() == "{"

    def end(self) -> None:
        """Refuse anything but whitespace after the document (as ``json.loads`` does)."""
        if self.peek():
            raise JsonProblem(f"it is not a readable JSON file (extra data at "
                              f"{self._where(self._pos)})")
