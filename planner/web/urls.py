from django.urls import path

from . import evidence_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("readyz", views.readyz, name="readyz"),
    path("favicon.ico", views.favicon, name="favicon"),
    path("plans/new", views.plan_new, name="plan-new"),
    path("plans/tiers", views.tier_options, name="plan-tier-options"),
    path("plans/compare", views.compare, name="plan-compare"),
    path("plans/uncertainty/<str:digest>", views.plan_uncertainty, name="plan-uncertainty"),
    path("plans/next-runs/<str:digest>", views.plan_next_runs, name="plan-next-runs"),
    path("plans/<uuid:code>/", views.plan_edit, name="plan-edit"),
    path("plans/<uuid:code>/figures", views.plan_figures, name="plan-figures"),
    path("plans/<uuid:code>/duplicate", views.plan_duplicate, name="plan-duplicate"),
    path("plans/<uuid:code>/delete", views.plan_delete, name="plan-delete"),
    path("plans/<uuid:code>/share", views.share_create, name="share-create"),
    path("plans/<uuid:code>/shares/<int:share_id>/revoke", views.share_revoke, name="share-revoke"),
    path("plans/<uuid:code>/<str:what>.csv", views.plan_export, name="plan-export"),
    path("evidence/link-target", evidence_views.link_target, name="evidence-link-target"),
    path("charts/<str:kind>-<str:digest>.svg", views.chart, name="chart"),
    path("s/<str:token>/", views.shared, name="shared"),
    path("s/<str:token>/<str:what>.csv", views.shared_export, name="shared-export"),
]
