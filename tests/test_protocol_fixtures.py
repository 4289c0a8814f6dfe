"""Every transcript in protocol_fixtures/, replayed against the session in this process (no subprocess)."""
from __future__ import annotations

from pathlib import Path

import pytest

from pbrain.check.transcript import parse, replay
from tests.brains import SessionBrain, all_transcripts

MINIMUM_TRANSCRIPTS = 30


def test_there_are_enough_transcripts_and_all_parse() -> None:
    paths = all_transcripts()
    assert len(paths) >= MINIMUM_TRANSCRIPTS
    for path in paths:
        transcript = parse(path)
        assert transcript.description, f"{path.name} needs a description comment on its first line"
        assert any(step.kind == "send" for step in transcript.steps)
        assert any(step.kind in ("exact", "pattern") for step in transcript.steps), path.name


@pytest.mark.parametrize("path", all_transcripts(), ids=lambda p: p.stem)
def test_transcript_in_process(path: Path) -> None:
    with SessionBrain() as brain:
        replay(path, brain)
