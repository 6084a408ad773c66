"""What every ``hokm`` command shares: the version, a closed pipe, argument checks."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hokm.cli import main


def test_a_reader_that_went_away_ends_the_command_quietly() -> None:
    """``hokm … | head -1``: no traceback when the pipe closes under the command."""
    read, write = os.pipe()
    os.close(read)  # every write now fails with EPIPE
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "hokm", "verify", "--seed", "x", "--hakem", "0"],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write)
    assert proc.returncode == 141
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_version_and_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.startswith("hokm ")
    with pytest.raises(SystemExit) as done:
        main(["serve", "--port", "99999"])
    assert done.value.code == 2
    assert "a port is from 0 to 65535, not 99999" in capsys.readouterr().err
