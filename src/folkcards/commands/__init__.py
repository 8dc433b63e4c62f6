"""Subcommands of the ``folkcards`` command, one module each."""
