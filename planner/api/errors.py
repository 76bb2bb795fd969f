"""The API's one error shape: `{"errors": {<field path>: [messages]}}`, every status alike.

`ApiError` is raised anywhere below an endpoint (auth, throttle, the body parser, a view)
and answered by `refusal()`; `errors_response` builds the same body for the few answers
made outside ninja's operations (405, CSRF failures).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse

NOT_FOUND = "not found"


def errors_response(status: int, field: str, *messages: str, **headers: str) -> JsonResponse:
    """`{"errors": {field: [messages]}}` with `status`; `Retry_After=` → `Retry-After:`."""
    response = JsonResponse({"errors": {field: list(messages)}}, status=status)
    for name, value in headers.items():
        response[name.replace("_", "-")] = value
    return response


class ApiError(Exception):
    """A refusal with its status, the field it concerns and its English message(s)."""

    def __init__(self, status: int, field: str, *messages: str, **headers: str) -> None:
        super().__init__(f"{status} {field}: {'; '.join(messages)}")
        self.status = status
        self.field = field
        self.messages = messages
        self.headers = headers

    def response(self) -> JsonResponse:
        return errors_response(self.status, self.field, *self.messages, **self.headers)


class Answered(Exception):
    """An answer made elsewhere (Django's CSRF check through CSRF_FAILURE_VIEW) to return
    as it is."""

    def __init__(self, response: HttpResponse) -> None:
        super().__init__(response.status_code)
        self.response = response


def refusal(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return exc.response()


def not_found() -> ApiError:
    return ApiError(404, "__all__", NOT_FOUND)
