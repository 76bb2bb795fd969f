from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "planner/home.html", {})


def healthz(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"ok": True})
