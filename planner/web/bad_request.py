"""The answer to a request Django refuses before any view (a Host header this server does
not serve, a malformed cookie or multipart body): 400, as JSON in the API's one error shape
under /api/ (the document promises JSON for every answer there), else the site's styled
page. Nothing of the request is read back (its host is what was wrong)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

API_PREFIX = "/api/"
# The API's messages are English (planner/api/errors.py); the page is translated.
API_MESSAGE = (
    "bad request: the server refused it before reading it"
    " (for example, a Host header it does not serve)"
)


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if request.path.startswith(API_PREFIX):
        return JsonResponse({"errors": {"__all__": [API_MESSAGE]}}, status=400)
    return HttpResponse(render_to_string("400.html"), status=400)
