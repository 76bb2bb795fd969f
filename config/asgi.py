"""ASGI entry point (the project serves WSGI under gunicorn; this is for ASGI servers)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()
