"""The live event server behind ``euchrelog serve`` (docs/serve.md).

:mod:`~euchrelog.serve.judge` judges an entry with the recorder and the replay,
:mod:`~euchrelog.serve.store` keeps events, games and deals in SQLite or PostgreSQL,
:mod:`~euchrelog.serve.standings` scores an event with ``euchrelog score``'s own code,
:mod:`~euchrelog.serve.pages` builds the escaped HTML and :mod:`~euchrelog.serve.app` is
the Starlette application. Nothing here is imported by ``euchrelog check``.
"""
