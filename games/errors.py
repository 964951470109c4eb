"""Errors raised by engines."""


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class InvalidOptions(ValueError):
    """Unknown or invalid game options, or an unsupported player count."""
