"""Databases the tests read, built once per run by the command-line tool
(RETRODB names it; bin/retrodb of the source tree by default)."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RETRODB = os.environ.get("RETRODB", str(ROOT / "bin" / "retrodb"))


def retrodb(*args: str) -> str:
    return subprocess.run([RETRODB, *args], check=True, capture_output=True, text=True).stdout


@pytest.fixture(scope="session")
def dbs(tmp_path_factory):
    base = tmp_path_factory.mktemp("dbs")
    built = {}
    for name, args in {
        "3x3": ["build", "dots", "3x3"],
        "2x3": ["build", "dots", "2x3"],
        "3x3-quiet": ["build", "dots", "3x3", "--store", "quiet"],
        "3x3-half": ["build", "dots", "3x3", "--store", "quiet-half"],
        "2x2-swedish": ["build", "dots", "2x2", "--variant", "swedish"],
        "cram-4x5": ["build", "cram", "4x5"],
    }.items():
        retrodb(*args, "--dir", str(base / name), "--quiet")
        built[name] = base / name
    return built
