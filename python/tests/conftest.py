"""Shared fixtures: where the CLI binary and the repository's files are."""

import os
import pathlib
import subprocess

import pytest

SOURCE_DIR = pathlib.Path(os.environ.get("MEMPLAN_SOURCE_DIR",
                                         pathlib.Path(__file__).resolve().parents[2]))
SHARED_DIR = SOURCE_DIR.parent / "shared"


@pytest.fixture
def cli():
    """Runs the memplan binary the build made; returns (exit code, stdout, stderr)."""
    binary = os.environ.get("MEMPLAN_CLI")
    if not binary:
        pytest.skip("MEMPLAN_CLI is not set (run through ctest)")

    def run(*args):
        done = subprocess.run([binary, *map(str, args)], capture_output=True, text=True,
                              cwd=SOURCE_DIR)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture
def examples():
    return SOURCE_DIR / "examples"
