from django.urls import path

from . import views

app_name = "benchmarks"
urlpatterns = [
    path("", views.index, name="index"),
    path("runs/start", views.start_run, name="start_run"),
    path("runs/import", views.run_import, name="import_run"),
    path("runs/<uuid:run_id>/", views.run_detail, name="run"),
    path("runs/<uuid:run_id>/chart.svg", views.run_chart, name="run_chart"),
    path("runs/<uuid:run_id>/cancel", views.run_cancel, name="run_cancel"),
    path("runs/<uuid:run_id>/export", views.run_export, name="run_export"),
    path("suites/start", views.start_suite, name="start_suite"),
    path("suites/<uuid:suite_id>/", views.suite_detail, name="suite"),
]
