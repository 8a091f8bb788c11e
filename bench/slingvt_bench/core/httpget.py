"""The benchmark's HTTP GETs to the instances (standard library only), shared by bench.py and pgstore.py."""

import base64
import json
import socket
import urllib.error
import urllib.request


def http_get(url, timeout=10, auth=None):
    """(status, body bytes); (None, b"") when there is no answer. auth: "user:password" for basic authentication."""
    req = urllib.request.Request(url)
    if auth:
        req.add_header("Authorization", "Basic " + base64.b64encode(auth.encode()).decode())
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()
    except (urllib.error.URLError, OSError, socket.timeout):
        return None, b""


def get_json(url, timeout=10, auth=None):
    """The JSON of a 200 answer, or None (no answer, another status, or not JSON)."""
    status, body = http_get(url, timeout, auth)
    if status != 200:
        return None
    try:
        return json.loads(body or b"{}")
    except ValueError:
        return None
