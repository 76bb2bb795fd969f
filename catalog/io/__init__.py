"""Import and export of the catalog in one format, CSV or JSON (see catalog/FORMAT.md).

Import is all-or-nothing: `formats.parse` reads and checks (`records`) every field of
every record, `changes.stage_changes` compares the result with the database, and only
a file without a single problem reaches `importer.apply_changes`, which writes
everything in one transaction. Every problem is collected as "line N, field X: why"
before the file is refused. `importer.import_catalog` does the three in turn.

Export (`exporter`) is deterministic (sorted rows, fixed number formatting), so
export → empty database → import → export gives the same bytes, history included.
"""
