"""Settings from environment variables, with safe development defaults.

Unset DATABASE_URL: SQLite under var/. Unset REDIS_URL: Celery over Kombu's
filesystem transport under var/, so `make run` needs no servers. DEBUG is off
unless asked for. Production adds config.settings_production on top.
"""

import os
import re
import secrets
import socket
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.utils.csp import CSP

from common.limits import MAX_JSON_BODY_BYTES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.getenv("PLANNER_VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def envbool(name: str, default: bool = False) -> bool:
    value = os.getenv(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def envint(name: str, default: int) -> int:
    value = os.getenv(name)
    return int(value) if value not in (None, "") else default


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]


def _secret_key() -> str:
    """SECRET_KEY from the environment, else one generated once and kept in var/."""
    if key := os.getenv("SECRET_KEY"):
        return key
    path = VAR_DIR / ".secret_key"
    if not path.exists():
        path.write_text(secrets.token_urlsafe(64))
        path.chmod(0o600)
    return path.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = envbool("DEBUG", False)
ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", "127.0.0.1,localhost,[::1],testserver")
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", "")
# Django's page for the site; the API's JSON 403 (with Django's reason) for its own checks.
CSRF_FAILURE_VIEW = "planner.api.auth.csrf_failure"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "changes",
    "catalog",
    "benchmarks_app",
    "bills",
    "planner",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "planner.middleware.PermissionsPolicy",
    "planner.middleware.RefuseNulInPath",  # before anything reads the path (whitenoise too)
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "benchmarks_app.visibility.EvidenceViewer",  # whose imported runs size the plans
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",  # last, as django-axes asks: answers a locked-out login
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
            "builtins": ["common.django.template_messages"],
        },
    },
]

# Database ---------------------------------------------------------------------
if os.getenv("DATABASE_URL"):
    # Kept 60 s, so checked before each request's first query (CONN_HEALTH_CHECKS: a
    # connection its server dropped is replaced, not a 500); PostgreSQL's engine also
    # retries a request's first query once on a dropped connection (issue 29, item 3).
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=60,
                                                  conn_health_checks=True)}  # fmt: skip
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        DATABASES["default"]["ENGINE"] = "planner.db.postgresql"
else:
    # The worker writes while the web reads: WAL, IMMEDIATE transactions and a
    # busy timeout keep SQLite from answering "database is locked".
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.getenv("SQLITE_PATH", str(VAR_DIR / "planner.sqlite3")),
            # Kept open between requests, as with PostgreSQL: opening a SQLite connection
            # (and its PRAGMAs) costs more than a cached page's one query.
            "CONN_MAX_AGE": envint("SQLITE_CONN_MAX_AGE", 60),
            "OPTIONS": {
                "transaction_mode": "IMMEDIATE",
                "timeout": 20,
                "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
            },
            "TEST": {"NAME": os.getenv("SQLITE_TEST_PATH", str(VAR_DIR / "test.sqlite3"))},
        }
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Sessions read from the cache, written through to the database: a logged-in page costs
# one query fewer, and with the cache down they are read from the database as before.
SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

# Redis: Celery broker and cache ----------------------------------------------------
REDIS_URL = os.getenv("REDIS_URL", "")
# A test session uses its own prefix (queues, cache keys, broker folder) so it
# never takes a running app's tasks; worker processes it starts inherit it.
# Under pytest-xdist each worker adds its name (gw0, gw1, …): the workers inherit the
# controller's prefix, and must not share queues or cache keys either.
if os.getenv("PYTEST_VERSION") and not os.getenv("PLANNER_QUEUE_PREFIX"):
    os.environ["PLANNER_QUEUE_PREFIX"] = f"test-{secrets.token_hex(4)}-"
_xdist_worker = os.getenv("PYTEST_XDIST_WORKER", "")
if _xdist_worker and not os.getenv("PLANNER_QUEUE_PREFIX", "").endswith(f"-{_xdist_worker}-"):
    os.environ["PLANNER_QUEUE_PREFIX"] = f"{os.getenv('PLANNER_QUEUE_PREFIX', '')}{_xdist_worker}-"
QUEUE_PREFIX = os.getenv("PLANNER_QUEUE_PREFIX", "")

if REDIS_URL:
    CACHES = {
        "default": {
            # A down Redis makes the site run uncached (logged), not answer 500.
            "BACKEND": "common.django.cache.TolerantRedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": f"{QUEUE_PREFIX}planner",
            # An unreachable (not just stopped) Redis costs a request at most this long.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 2},
        }
    }
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
    CELERY_BROKER_TRANSPORT_OPTIONS = {"global_keyprefix": QUEUE_PREFIX} if QUEUE_PREFIX else {}
    # A hung Redis (paused, its host unreachable) answers no read: bounded, as the cache's
    # (a worker's BRPOP returns every second, well inside the read timeout).
    CELERY_BROKER_TRANSPORT_OPTIONS |= {"socket_connect_timeout": 1, "socket_timeout": 1.5}
    CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = CELERY_BROKER_TRANSPORT_OPTIONS
else:
    CACHES = {
        "default": {
            # A full disk makes the site run uncached (logged), not answer 500.
            "BACKEND": "common.django.file_cache.TolerantFileBasedCache",
            "LOCATION": str(VAR_DIR / "cache" / (QUEUE_PREFIX or "app")),
        }
    }
    _broker_dir = VAR_DIR / "broker" / (QUEUE_PREFIX or "app")
    for _sub in ("out", "processed", "control"):
        (_broker_dir / _sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        # Kombu's default control folder is ./control, relative to wherever a process starts.
        "control_folder": str(_broker_dir / "control"),
        "data_folder_in": str(_broker_dir / "out"),
        "data_folder_out": str(_broker_dir / "out"),
        "data_folder_processed": str(_broker_dir / "processed"),
    }
    CELERY_RESULT_BACKEND = f"file://{VAR_DIR / 'results' / (QUEUE_PREFIX or 'app')}"
    (VAR_DIR / "results" / (QUEUE_PREFIX or "app")).mkdir(parents=True, exist_ok=True)

CELERY_TASK_DEFAULT_QUEUE = "default"
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = False
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TIMEZONE = "UTC"


def _node_name(raw: str) -> str:
    return re.sub(r"[^a-z0-9-]+", "-", raw.lower()).strip("-") or "local"


# The benchmark target that `make run`'s worker serves (queue bench.<name>).
BENCH_TARGET_NAME = _node_name(os.getenv("BENCH_TARGET_NAME", socket.gethostname()))
# A benchmark worker touches its target this often; three missed beats = vanished.
BENCH_HEARTBEAT_SECONDS = envint("BENCH_HEARTBEAT_SECONDS", 15)
# Queued runs are reconciled within this bound: one nobody claims while its target is
# online and idle is re-sent (its broker message was lost), and failed after its third
# send goes unclaimed; one whose target is offline longer than this fails. Nothing waits
# for a worker that is gone (README, "Settings").
BENCH_QUEUED_BOUND_SECONDS = envint("BENCH_QUEUED_BOUND_SECONDS", 300)
# A queued run behind other runs on a busy target waits, but never longer than this.
BENCH_QUEUED_MAX_WAIT_SECONDS = envint("BENCH_QUEUED_MAX_WAIT_SECONDS", 24 * 3600)
# The reconciler's period: a twentieth of the bound (15 s by default).
BENCH_RECONCILE_SECONDS = max(0.5, BENCH_QUEUED_BOUND_SECONDS / 20)
# Periodic checks run on the default queue, which only a control worker consumes
# (`make run` starts one beside the benchmark worker), so a running benchmark never
# delays them.
CELERY_BEAT_SCHEDULE = {
    "benchmarks-check-targets": {
        "task": "benchmarks_app.check_targets",
        "schedule": float(BENCH_HEARTBEAT_SECONDS),
        "options": {"queue": "default"},
    },
    "benchmarks-reconcile-runs": {
        "task": "benchmarks_app.reconcile_runs",
        "schedule": float(BENCH_RECONCILE_SECONDS),
        "options": {"queue": "default"},
    },
}
CELERY_TASK_ROUTES = {
    "benchmarks_app.check_targets": {"queue": "default"},
    "benchmarks_app.reconcile_runs": {"queue": "default"},
}


def _feed_schedule(source: str, default: str) -> crontab | None:
    """When a price feed syncs (UTC, daily): CATALOG_FEED_SCHEDULE_<SOURCE>, else
    CATALOG_FEED_SCHEDULE, else `default`; "HH:MM" or "off"."""
    name = f"CATALOG_FEED_SCHEDULE_{source.upper().replace('-', '_')}"
    value = os.getenv(name) or os.getenv("CATALOG_FEED_SCHEDULE") or default
    if value.strip().lower() == "off":
        return None
    hour, _, minute = value.strip().partition(":")
    return crontab(hour=int(hour), minute=int(minute or 0))


# Price feeds (catalog/feeds, README "Price feeds"): daily, staggered, on the control
# queue, so a sync never runs on a benchmark target while it measures. The ECB publishes
# around 16:00 CET.
CATALOG_FEED_DEFAULT_SCHEDULE = {
    "aws": "02:00", "azure": "02:30", "hetzner": "03:00", "ovh": "03:30", "ecb": "15:30",
}  # fmt: skip
for _source, _default in CATALOG_FEED_DEFAULT_SCHEDULE.items():
    if (_when := _feed_schedule(_source, _default)) is not None:
        CELERY_BEAT_SCHEDULE[f"catalog-sync-{_source}"] = {
            "task": "catalog.sync_prices",
            "schedule": _when,
            "args": [_source],
            "options": {"queue": "default"},
        }
# Catalog work runs on the control (default) queue too, never on a bench.* queue.
CELERY_TASK_ROUTES["catalog.sync_prices"] = {"queue": "default"}

# Catalog ------------------------------------------------------------------------
# A price is stale once older than this many days, per pricing model: spot
# prices move daily, list prices change over months.
CATALOG_STALE_AFTER_DAYS = {
    "spot": envint("CATALOG_STALE_SPOT_DAYS", 7),
    "on_demand": envint("CATALOG_STALE_ON_DEMAND_DAYS", 180),
    "reserved_1y": envint("CATALOG_STALE_RESERVED_DAYS", 180),
    "reserved_3y": envint("CATALOG_STALE_RESERVED_DAYS", 180),
    "fixed_monthly": envint("CATALOG_STALE_FIXED_MONTHLY_DAYS", 365),
}
CATALOG_IMPORT_MAX_BYTES = envint("CATALOG_IMPORT_MAX_BYTES", 10 * 1024 * 1024)

# JSON API ---------------------------------------------------------------------------
# Calls a user (an IP when anonymous) may make a minute; the counter lives in the cache.
API_RATE_LIMIT_PER_MINUTE = envint("API_RATE_LIMIT_PER_MINUTE", 120)
# A same-host scaling fit with an R² below this sizes no plan (planner/compute/fitgate.py).
PLANNER_FIT_MIN_R2 = float(os.getenv("PLANNER_FIT_MIN_R2", "0.9"))
# ec2instances.info instances.json whose pct_interrupt buckets give spot tiers their
# interruption range (catalog.interruptions); unset: the planner's assumption, labelled.
PLANNER_SPOT_INTERRUPTIONS_FILE = os.getenv("PLANNER_SPOT_INTERRUPTIONS_FILE") or None
# A plan is a few KiB: larger bodies are refused (413) without being read.
API_MAX_BODY_BYTES = envint("API_MAX_BODY_BYTES", MAX_JSON_BODY_BYTES)

# Content-Security-Policy: our own origin only, no inline script or style and no eval
# (static/js/app.js holds what inline handlers did). No nonces: shared pages are cached
# whole, so a page can hold nothing that differs per response.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "object-src": [CSP.NONE],
}

# Auth, i18n, static ------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Login throttling (django-axes), on /accounts/login/ and the admin login alike: after
# AXES_FAILURE_LIMIT failures for one username from one address, that pair is refused
# (429) for the cool-off, even with the right password. Keyed by the pair so a guesser
# cannot lock out everyone behind a shared address, and a user's own success resets
# only their count. Attempts live in the database, so throttling holds with Redis down.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's ModelBackend, reading the signed-in user with SQL built once (a third of a
    # logged-in page's time went to compiling that query). Sessions signed in through
    # Django's own path before this name came in sign in again, once.
    "planner.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = envint("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=envint("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_DISABLE_ACCESS_LOG = True  # failures are kept; successful logins are not logged
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"
# Mail: password resets and staff invitations (Django's views), through Django 6.1's
# MAILERS. Printed on the terminal (the console backend) unless EMAIL_HOST names an SMTP
# server (EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS: default on).
if os.getenv("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": os.environ["EMAIL_HOST"],
                "port": envint("EMAIL_PORT", 587),
                "username": os.getenv("EMAIL_HOST_USER", ""),
                "password": os.getenv("EMAIL_HOST_PASSWORD", ""),
                "use_tls": envbool("EMAIL_USE_TLS", True),
                "timeout": 20,
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.getenv("DEFAULT_FROM_EMAIL", "planner@localhost")

LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("de", "Deutsch")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.getenv("STATIC_ROOT", BASE_DIR / "staticfiles"))
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # whitenoise warns on every request otherwise
STATICFILES_DIRS = [BASE_DIR / "static"]
# Development and tests serve straight from the app folders (no collectstatic);
# production switches to the manifest storage in settings_production.
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.getenv("LOG_LEVEL", "WARNING")},
}
