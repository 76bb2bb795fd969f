from django.urls import path

from . import views

app_name = "catalog"
urlpatterns = [
    path("", views.tier_list, name="tiers"),
    path("export.csv", views.export_csv, name="export"),
    path("compare/", views.compare, name="compare"),
    path("sources/", views.sources, name="sources"),
]
