from django.contrib import admin
from django.http import HttpRequest

from planner.models import ApiToken, Plan, Share, SpeedFactor


class ShareInline(admin.TabularInline):
    model = Share
    extra = 0
    fields = ("token", "created_by", "created_at", "revoked_at")
    readonly_fields = ("token", "created_by", "created_at")
    can_delete = False


@admin.register(Plan)
class PlanAdmin(admin.ModelAdmin):
    list_display = ("__str__", "owner", "created", "updated")
    search_fields = ("name", "code", "owner__username")
    readonly_fields = ("code", "created", "updated")
    raw_id_fields = ("owner",)
    inlines = [ShareInline]


@admin.register(Share)
class ShareAdmin(admin.ModelAdmin):
    list_display = ("__str__", "plan", "created_by", "created_at", "revoked_at")
    list_filter = ("revoked_at",)
    # A snapshot is evidence of what a plan said on a date: never edited.
    readonly_fields = ("plan", "token", "snapshot", "created_by", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "prefix", "user__username")
    readonly_fields = ("user", "name", "prefix", "key_hash", "created_at", "last_used_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # keys are issued on the account page, where the raw key is shown once


@admin.register(SpeedFactor)
class SpeedFactorAdmin(admin.ModelAdmin):
    list_display = ("tier", "relative_to", "factor", "unit", "author", "date")
    search_fields = ("tier__slug", "relative_to__slug", "source", "author")
    autocomplete_fields = ("tier", "relative_to")

    # Declared speed factors turn "no number" into an estimate on every plan: staff only.
    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_add_permission(self, request: HttpRequest) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return request.user.is_active and request.user.is_staff
