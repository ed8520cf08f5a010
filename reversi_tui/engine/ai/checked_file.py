"""The frame of the engine's data files (pattern weights, opening book): checked on reading.

``magic`` (4 bytes), a little-endian u32 header length, the header as UTF-8 JSON
(with ``format``, ``payload_bytes`` and ``payload_sha256`` among its keys), then the
payload, zlib-compressed. Reading refuses, with the caller's error class, a file
whose magic, header, format or checksum does not check out.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from typing import Any

#: The largest header read: a damaged length must not allocate gigabytes.
MAX_HEADER = 1 << 16


def pack(magic: bytes, header: dict[str, Any], payload: bytes) -> bytes:
    """A file's bytes: ``header`` gains the payload's length and sha256."""
    full = {
        **header,
        "payload_bytes": len(payload),
        "payload_sha256": hashlib.sha256(payload).hexdigest(),
    }
    head = json.dumps(full, sort_keys=True).encode()
    return magic + len(head).to_bytes(4, "little") + head + zlib.compress(payload, 9)


def unpack(
    data: bytes, magic: bytes, version: int, error: type[ValueError], kind: str, contents: str
) -> tuple[dict[str, Any], bytes]:
    """The header and payload of a ``kind`` file (format ``version``), checked; ``error``
    says what is wrong (``contents`` are damaged on a checksum mismatch)."""
    if data[:4] != magic:
        raise error(f"not {kind} file (bad magic)")
    size = int.from_bytes(data[4:8], "little")
    if size > MAX_HEADER or len(data) < 8 + size:
        raise error("truncated header")
    try:
        header = json.loads(data[8 : 8 + size])
        payload = zlib.decompress(data[8 + size :])
    except (ValueError, zlib.error) as err:
        raise error(f"damaged file: {err}") from None
    if not isinstance(header, dict) or header.get("format") != version:
        raise error(f"unsupported format (this program reads format {version})")
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        raise error(f"checksum mismatch: {contents} damaged")
    return header, payload
