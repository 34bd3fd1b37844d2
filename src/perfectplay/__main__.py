"""``python -m perfectplay``: the same as the ``perfectplay`` command."""

from .cli import main

main()
