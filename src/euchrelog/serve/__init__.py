"""The live event server behind ``euchrelog serve`` (docs/serve.md).

:mod:`~euchrelog.serve.judge` judges an entry with the recorder and the replay (keeping each
table game's state between two entries), :mod:`~euchrelog.serve.store` keeps events, games,
deals and their acceptance, the audit trail, the director's sessions and the player
registry in SQLite or PostgreSQL, :mod:`~euchrelog.serve.standings` scores an event with
``euchrelog score``'s own code, :mod:`~euchrelog.serve.live` streams the standings,
:mod:`~euchrelog.serve.guard` keeps the server up (timeouts, bounds, limits per client),
:mod:`~euchrelog.serve.cards` makes the data of the table cards, :mod:`~euchrelog.serve.pages`
builds the escaped HTML and :mod:`~euchrelog.serve.app` is the Starlette application.
Nothing here is imported by ``euchrelog check``.
"""
