"""Production: HTTPS, secure cookies, HSTS and hashed static files.

DJANGO_SETTINGS_MODULE=config.settings_production with SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL and REDIS_URL set; `python manage.py check --deploy --fail-level WARNING`
passes with nothing silenced. Run `python manage.py collectstatic` at deploy time.
"""

import os

from django.core.exceptions import ImproperlyConfigured

from .settings import *  # noqa: F403
from .settings import STORAGES, envbool, envint

# Refused without them (issue 29, item 10): the development fallbacks (a key generated
# into var/, hosts for this machine only) would give each host its own key.
_missing = [name for name in ("SECRET_KEY", "ALLOWED_HOSTS") if not os.getenv(name, "").strip()]
if _missing:
    raise ImproperlyConfigured(
        f"production settings need {' and '.join(_missing)} in the environment"
        " (README, production): refusing to start without them"
    )

DEBUG = False
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", True)
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
WHITENOISE_USE_FINDERS = False
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
