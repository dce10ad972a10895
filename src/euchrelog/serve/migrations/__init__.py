"""The Alembic migrations of the server's database (see
:func:`euchrelog.serve.store.migrate`)."""
