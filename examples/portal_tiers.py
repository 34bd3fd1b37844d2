"""Closing the Portal on a 5 x 4 board as a tiered game, for the on-disk tablebase:

    perfectplay solve examples/portal_tiers.py:Board5x4 --store tb/
    perfectplay query tb/ 0          # the start: no walls yet
    perfectplay analyze tb/

PortalGame already declares tier (walls placed), encode and decode.
"""

from __future__ import annotations

from perfectplay.portal import PortalGame, parse_board


class Board5x4(PortalGame):
    def __init__(self) -> None:
        super().__init__(parse_board("O...\n....\n.#..\n....\n...O"))
