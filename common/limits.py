"""Size limits that more than one layer enforces."""

# A plan is a few KiB as JSON; anything far larger is not a plan. The API's default body
# limit (settings.API_MAX_BODY_BYTES, overridable) and the schema parser's own limit.
MAX_JSON_BODY_BYTES = 256 * 1024
