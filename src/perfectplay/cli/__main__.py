"""``python -m perfectplay.cli``: the same as the ``perfectplay`` command."""

from . import main

main()
