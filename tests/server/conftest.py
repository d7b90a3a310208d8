"""conftest -- the fixtures the suites of tests/server share (pytest loads
this file before them): `server`, a fresh `scopa serve` on its own store
(SQLite, or PostgreSQL under SCOPA_TEST_STORE=postgresql), stopped after
the test."""
import pytest

from serverlib import Server


@pytest.fixture
def server(tmp_path):
    s = Server(str(tmp_path / "serve.db")).start()
    yield s
    s.stop()
