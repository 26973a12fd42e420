"""The program agents' session server (the `browser` command's other end) answers a request it cannot
frame with 400 and one reason, quietly: no socketserver traceback on the run's stderr."""

from __future__ import annotations

import http.client
import json

import pytest

from pytest_websearchbench.webbench.agents.program_agent import _SessionServer


@pytest.mark.parametrize("declared", ["abc", "-1", "99999999999"])
def test_a_malformed_content_length_is_400_and_no_traceback(declared, capfd):
    with _SessionServer() as session:
        connection = http.client.HTTPConnection(session.http.url.removeprefix("http://"), timeout=5)
        connection.putrequest("POST", f"/{session.token}")
        connection.putheader("Content-Length", declared)
        connection.endheaders()
        response = connection.getresponse()
        assert response.status == 400
        error = json.loads(response.read())["error"]
        assert "Content-Length" in error or "exceeds the limit" in error
        connection.close()
        assert session.requests.empty()  # nothing reached the episode
    err = capfd.readouterr().err
    assert "Traceback" not in err and err == ""
