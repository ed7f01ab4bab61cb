"""Star Wars Epic Duels (Hasbro 2002): the four battle scenes as board data.

The rules arrive in a later module; :mod:`.boards` already answers every spatial
question they ask through :mod:`boardstate.geometry`.
"""
