from django.urls import path

from planner.api import views as api

app_name = "api"
# Plan ids and tokens are matched as plain strings and checked in the view, so a
# malformed id answers the same JSON 404 as someone else's plan.
urlpatterns = [
    path("evaluate", api.evaluate_plan, name="evaluate"),
    path("plans", api.plans, name="plans"),
    path("plans/<str:code>", api.plan_detail, name="plan"),
    path("plans/<str:code>/shares", api.plan_shares, name="plan-shares"),
    path("plans/<str:code>/shares/<str:token>", api.plan_share_revoke, name="plan-share"),
    path("shared/<str:token>", api.shared, name="shared"),
]
