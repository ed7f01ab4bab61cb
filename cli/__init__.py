"""The ``boardstate`` command (click)."""

from .app import cli, main

__all__ = ["cli", "main"]
