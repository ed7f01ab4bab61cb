"""``python -m boardstate.cli``: the same as the ``boardstate`` command."""

from .app import main

main()
