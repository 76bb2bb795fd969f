from django.contrib import admin
from django.urls import include, path

from planner.web.login_view import PlannerLoginView

# The site's own 404 (templates/404.html) and 400 (JSON under /api/); 500 is Django's,
# rendering templates/500.html.
handler404 = "planner.web.views.page_not_found"
handler400 = "planner.web.bad_request.bad_request"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", PlannerLoginView.as_view(), name="login"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("catalog/", include("catalog.urls")),
    path("benchmarks/", include("benchmarks_app.urls")),
    path("bills/", include("bills.web.urls")),
    path("api/v1/", include("planner.api.urls")),
    path("account/", include("planner.web.account_urls")),
    path("", include("planner.web.urls")),
]
