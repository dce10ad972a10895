"""The arena: players matched on the same deals (docs/players.md)."""
