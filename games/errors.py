"""Errors raised by engines."""


class IllegalAction(ValueError):
    """An action that is not legal in the current state; the state is unchanged."""


class InvalidOptions(ValueError):
    """Unknown or invalid game options, or an unsupported player count or seed."""


class RulesChanged(Exception):
    """A game recorded under another version of the rules: replaying its seed and
    actions here would play a different game, so it is refused."""
