"""Small project-wide middleware: NUL bytes in paths refused, the Permissions-Policy header."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse

Handler = Callable[[HttpRequest], HttpResponse]


class RefuseNulInPath:
    """A path with a NUL byte in it (`/s/%00/`) names nothing: answer 404 before any view.

    PostgreSQL text cannot hold NUL, so a share token, plan id or any other path part
    that reaches a query raises psycopg's DataError: an HTML 500 instead of "not found",
    and only on PostgreSQL (SQLite stores NUL and finds nothing). No URL of ours has a
    NUL, so one check here covers every view, static files (a NUL in a file name
    raises in os.stat) and the views added later. Placed right after SecurityMiddleware,
    so the 404 carries the same security headers as any page. Under /api/ the answer is
    the API's own JSON 404, as for an unknown token.
    """

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            if request.path_info.startswith("/api/"):
                return JsonResponse({"errors": {"__all__": ["not found"]}}, status=404)
            raise Http404
        return self.get_response(request)


# Powerful browser features no page of ours uses: none may be used, by us or by any
# frame. Only names Chromium knows (an unknown one is an error in the console: "bluetooth"
# was one, so it is not listed; `KNOWN_FEATURES` in tests/test_security_headers.py).
PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer", "autoplay", "camera", "display-capture",
        "encrypted-media", "geolocation", "gyroscope", "hid", "idle-detection",
        "magnetometer", "microphone", "midi", "payment", "publickey-credentials-get",
        "screen-wake-lock", "serial", "usb", "xr-spatial-tracking",
    )
)  # fmt: skip


class PermissionsPolicy:
    """Send the Permissions-Policy header on every response (Django has no setting for it)."""

    def __init__(self, get_response: Handler) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
