"""What a reader refuses: a message code with typed parameters (common.messages), never
a finished sentence. Pure: no Django."""

from __future__ import annotations

from typing import Any

from common.messages import Message, msg


class BillRefused(Exception):
    """A file that is not imported, and why: `message` names the file, line or column."""

    def __init__(self, code: str, **params: Any) -> None:
        self.message: Message = msg(code, **params)
        super().__init__(str(self.message))
