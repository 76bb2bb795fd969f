from django.urls import path

from planner.web import account_views, invite_views

urlpatterns = [
    path("", account_views.account, name="account"),
    path("invite", invite_views.invite, name="account-invite"),
    path("tokens/<int:token_id>/revoke", account_views.revoke_token, name="account-token-revoke"),
]
