"""Fuzz the TUI's input path, bounded for CI; longer on demand.

``REVERSI_FUZZ_EVENTS=200000 pytest tests/tui/test_fuzz.py -s`` (or ``reversi bench
fuzz --events N --seed S``) runs longer; the counts are printed either way.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from reversi_tui.cli import main
from reversi_tui.commands.bench_fuzz import fuzz_bytes, fuzz_keys, random_chunk

#: Events per part in CI: a few seconds in all.
EVENTS = int(os.environ.get("REVERSI_FUZZ_EVENTS", "0")) or None
SEED = int(os.environ.get("REVERSI_FUZZ_SEED", "1"))


def test_random_bytes_never_crash_the_parser() -> None:
    report = fuzz_bytes(EVENTS or 3000, SEED)
    print(f"bytes: {report.events} chunks fuzzed, {report.crashes} crashes")
    assert report.events == (EVENTS or 3000)
    assert report.crashes == 0, report.examples


def test_the_chunks_include_what_broke_textual() -> None:
    """The generator does produce bytes that are not UTF-8, huge numbers and replies."""
    rng = random.Random(SEED)
    chunks = b"".join(random_chunk(rng) for _ in range(500))
    assert b"\xe9" in chunks or any(byte >= 0x80 for byte in chunks)
    assert b"9999999999999999999" in chunks
    assert b"\x1b[48;" in chunks and b"\x1bP" in chunks


async def test_random_key_bursts_never_crash_the_app() -> None:
    report = await fuzz_keys(EVENTS or 400, SEED)
    print(f"keys: {report.events} keys fuzzed, {report.crashes} crashes")
    assert report.events >= (EVENTS or 400)
    assert report.crashes == 0, report.examples


def test_bench_fuzz_prints_the_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """The counts are printed; the status is 1 exactly when something crashed."""
    status = main(["bench", "fuzz", "--events", "40", "--seed", "3"])
    out = capsys.readouterr().out
    assert "bytes to the parser: 20 chunks, 0 crashes" in out
    keys = re.search(r"key bursts to the app: (\d+) keys, (\d+) crashes", out)
    assert keys is not None and int(keys[1]) >= 20
    assert status == (1 if int(keys[2]) else 0)
