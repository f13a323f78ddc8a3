"""multipart/form-data by hand (the standard library has no encoder for requests)."""
from __future__ import annotations

import os
import uuid
from typing import Any, List, Tuple, Union
from urllib.parse import quote

# What an upload accepts: a path, an open binary file, (name, bytes or str), or (name, data, content type).
FileInput = Union[str, "os.PathLike[str]", Any, Tuple[str, Any], Tuple[str, Any, str]]


def _escape(value: str) -> str:
    return value.replace("\\", "%5C").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _disposition(field: str, filename: str) -> str:
    ascii_name = "".join(c if 0x20 <= ord(c) < 0x7F else "_" for c in filename)
    header = f'form-data; name="{_escape(field)}"; filename="{_escape(ascii_name)}"'
    if ascii_name != filename:
        # RFC 5987: servers that read parameters as Latin-1 still get the UTF-8 name right.
        header += "; filename*=UTF-8''" + quote(filename, safe="!#$&+-.^_`|~")
    return header


def read_file(item: FileInput) -> Tuple[str, bytes, str]:
    """``(name, bytes, content type)`` of one upload item."""
    content_type = "application/octet-stream"
    if isinstance(item, tuple):
        name, data = item[0], item[1]
        if len(item) > 2:
            content_type = item[2]
    elif isinstance(item, (str, os.PathLike)):
        with open(item, "rb") as f:
            return os.path.basename(os.fspath(item)), f.read(), content_type
    elif hasattr(item, "read"):
        name, data = os.path.basename(str(getattr(item, "name", "upload"))), item
    else:
        raise TypeError(f"cannot upload {type(item).__name__}: pass a path, an open file, or (name, bytes)")
    if hasattr(data, "read"):
        data = data.read()
    if isinstance(data, str):
        data = data.encode("utf-8")
    return str(name), bytes(data), content_type


def encode(files: List[Tuple[str, bytes, str]], fields: List[Tuple[str, str]]) -> Tuple[bytes, str]:
    """The body and its content type."""
    boundary = f"kbqa-{uuid.uuid4().hex}"
    out: List[bytes] = []
    for name, data, content_type in files:
        head = f"--{boundary}\r\nContent-Disposition: {_disposition('file', name)}\r\nContent-Type: {content_type}\r\n\r\n"
        out += [head.encode("utf-8"), data, b"\r\n"]
    for field, value in fields:
        head = f'--{boundary}\r\nContent-Disposition: form-data; name="{_escape(field)}"\r\n\r\n'
        out += [head.encode("utf-8"), value.encode("utf-8"), b"\r\n"]
    out.append(f"--{boundary}--\r\n".encode("ascii"))
    return b"".join(out), f"multipart/form-data; boundary={boundary}"
