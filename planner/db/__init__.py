"""Database engines of our own: Django's, with a dropped connection retried (see
`planner.db.postgresql`)."""
