from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def tier_list(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/tiers.html", {})
