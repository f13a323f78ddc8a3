"""Server-sent events from a streamed HTTP response."""
from __future__ import annotations

import json
from typing import IO, Any, Iterator, List, Tuple


def read_events(response: IO[bytes]) -> Iterator[Tuple[str, str]]:
    """``(event, data)`` pairs with ``data`` as text; comments are dropped, an unnamed event is ``message``."""
    event = ""
    data: List[str] = []
    for raw in response:
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                yield event or "message", "\n".join(data)
            event, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)
    if data:
        yield event or "message", "\n".join(data)


def read_json_events(response: IO[bytes]) -> Iterator[Tuple[str, Any]]:
    """Events with JSON data; the chat stream's ``[DONE]`` comes through as ``("done", None)``."""
    for event, data in read_events(response):
        if data == "[DONE]":
            yield "done", None
        else:
            yield event, json.loads(data)
