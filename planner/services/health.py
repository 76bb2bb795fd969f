"""What the readiness probe asks of the database (web runs no SQL of its own)."""

from django.db import connection


def database_answers() -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)
