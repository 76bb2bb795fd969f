"""Price feeds: the catalog kept current from the providers' own published files.

Each source is one small module (`aws.py`, `ecb.py`) implementing `base.Source`: its
published URL(s), default regions, a streaming reader that yields `FeedPrice` or
`FeedRate` records, and whether a file is complete (then a tier it no longer lists is
retired). `registry.SOURCES` names them. `sync.sync_source` runs one: download
(`download.py`) or `--file`, skip a file already imported (same SHA-256), read,
check the row count against the last import, stage the difference with reads only
(`stage.py`), write it in one short transaction (`apply.py`), and record a
`catalog.models.FeedImport` with the counts and the messages. All or nothing per source
and region. `python manage.py sync_prices` and the task `catalog.tasks.sync_prices` call it.
"""
