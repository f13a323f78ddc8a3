"""Reading a streamed response as JSON events, closing it however the reader stops."""
from __future__ import annotations

import http.client
import socket
from typing import Any, Iterator, Tuple

from ._http import Transport
from ._sse import read_json_events
from .errors import APIConnectionError, APITimeoutError


def stream_events(transport: Transport, method: str, path: str, **kwargs: Any) -> Iterator[Tuple[str, Any]]:
    """``(event, data)`` of a server-sent-event response. Leaving the loop early (or closing the
    generator) closes the connection."""
    response = transport.send(method, path, stream=True, **kwargs)
    try:
        yield from read_json_events(response)
    except (socket.timeout, TimeoutError) as error:
        raise APITimeoutError(f"The stream of {method} {path} went quiet for longer than the timeout.") from error
    except (http.client.HTTPException, ConnectionError) as error:
        raise APIConnectionError(f"The stream of {method} {path} broke: {error}") from error
    finally:
        response.close()
