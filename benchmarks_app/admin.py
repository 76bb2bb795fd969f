"""Staff edit profiles (each save is a new version), link targets to catalog tiers,
and look at runs. History stays as it ran: versions and runs are never edited, and
a run is retired rather than deleted (plans and shares may rest on it)."""

import json

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from common.django.message_render import render

from . import tier_links
from .hardware_match import tier_mismatches
from .models import Profile, ProfileVersion, Run, Summary, Target
from .profiles_loader import EditRefused, bump, content_problems, edit_profile
from .services import cancel_run


class ProfileVersionInline(admin.TabularInline):
    model = ProfileVersion
    fields = ["version", "source", "content_hash", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "workload_class", "title", "current"]
    list_filter = ["workload_class"]
    readonly_fields = ["name", "workload_class", "title"]
    inlines = [ProfileVersionInline]

    @admin.display(description=_("current version"))
    def current(self, obj: Profile) -> str:
        version = obj.current_version()
        return version.version if version else "—"

    def has_add_permission(self, request) -> bool:
        return False


class PrettyJSONWidget(forms.Textarea):
    def format_value(self, value):
        try:
            return json.dumps(json.loads(value), indent=2, ensure_ascii=False)
        except (TypeError, ValueError):
            return value


class ProfileEditForm(forms.ModelForm):
    """Saving makes a new version above the profile's newest; this one stays as it was."""

    bump = forms.ChoiceField(
        label=_("new version"),
        choices=[
            ("patch", _("patch (X.Y.Z+1): results stay comparable")),
            ("minor", _("minor (X.Y+1.0): earlier results no longer compare")),
            ("major", _("major (X+1.0.0)")),
        ],
        initial="patch",
    )

    class Meta:
        model = ProfileVersion
        fields = ["content"]
        widgets = {"content": PrettyJSONWidget(attrs={"rows": 40, "cols": 100})}

    def clean(self) -> dict:
        data = super().clean()
        content = data.get("content")
        if not isinstance(content, dict):
            return data
        newest = self.instance.profile.current_version()
        candidate = {
            **content,
            "name": self.instance.profile.name,
            "version": bump(newest.version, data.get("bump", "patch")),
        }
        if problems := content_problems(candidate):
            raise forms.ValidationError([render(problem) for problem in problems])
        return data


@admin.register(ProfileVersion)
class ProfileVersionAdmin(admin.ModelAdmin):
    form = ProfileEditForm
    list_display = ["profile", "version", "source", "created_by", "created_at", "short_hash"]
    list_filter = ["source", "profile__workload_class"]
    search_fields = ["profile__name", "version", "content_hash"]
    readonly_fields = ["profile", "version", "source", "content_hash", "created_by", "created_at"]
    fields = [*readonly_fields, "content", "bump"]

    @admin.display(description=_("hash"))
    def short_hash(self, obj: ProfileVersion) -> str:
        return obj.content_hash[:12]

    def has_add_permission(self, request) -> bool:
        return False  # versions come from shipped files, staff edits and imports

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: ProfileVersion, form, change: bool) -> None:
        base = ProfileVersion.objects.get(pk=obj.pk)
        try:
            new = edit_profile(base, form.cleaned_data["content"],
                               part=form.cleaned_data["bump"], user=request.user)  # fmt: skip
        except EditRefused as exc:
            why = "; ".join(render(m) for m in exc.messages)
            messages.warning(request, _("No new version: %(why)s") % {"why": why})
            obj.refresh_from_db()
            return
        # The admin goes on to log and redirect: point it at the new version.
        obj.__dict__.update({k: v for k, v in new.__dict__.items() if not k.startswith("_")})
        messages.success(
            request, _("Saved as version %(version)s; %(old)s is unchanged.")
            % {"version": new.version, "old": base.version},
        )  # fmt: skip


@admin.register(Target)
class TargetAdmin(admin.ModelAdmin):
    list_display = ["name", "hostname", "cpu", "online", "last_seen", "tier", "tier_confirmed",
                    "imported"]  # fmt: skip
    list_filter = ["online", "imported", "tier_confirmed"]
    search_fields = ["name", "hostname"]
    autocomplete_fields = ["tier"]
    fields = ["name", "hostname", "tier", "tier_confirmed", "tier_confirmed_by",
              "tier_confirmed_at", "online", "last_seen", "imported", "fingerprint"]  # fmt: skip
    readonly_fields = [*(f for f in fields if f != "tier")]
    actions = ["confirm_tier_links"]

    @admin.action(
        description=_("Confirm the tier link: its runs size everyone's plans"),
        permissions=["change"],
    )
    def confirm_tier_links(self, request: HttpRequest, queryset) -> None:
        linked = [t for t in queryset if t.tier_id is not None]
        runs = sum(tier_links.confirm(target, request.user) for target in linked)
        self.message_user(request, _("Confirmed %(targets)s tier links (%(runs)s runs).")
                          % {"targets": len(linked), "runs": runs})  # fmt: skip

    @admin.display(description=_("CPU"))
    def cpu(self, obj: Target) -> str:
        fp = obj.fingerprint
        return f"{fp.get('cpu_model') or '?'} ({fp.get('usable_cpus') or '?'} usable)"

    def has_add_permission(self, request) -> bool:
        return False  # a target is recorded by its worker (or an import)

    def save_model(self, request: HttpRequest, obj: Target, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if "tier" in form.changed_data and obj.tier is not None:
            tier_links.confirm(obj, request.user)  # a staff link counts for everyone
        if "tier" in form.changed_data and obj.tier is not None:
            for problem in tier_mismatches(obj.name, obj.fingerprint, obj.tier):
                messages.warning(request, render(problem))


class SummaryInline(admin.TabularInline):
    model = Summary
    fields = ["threads", "n", "median", "min", "max", "cv", "stop_reason", "peak_rss_bytes"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ["pk", "profile_version", "scale", "target", "status", "created_at",
                    "retired_at"]  # fmt: skip
    list_filter = [
        "status",
        "scale",
        "imported",
        "target",
        ("retired_at", admin.EmptyFieldListFilter),
    ]
    list_select_related = ["profile_version__profile", "target"]
    search_fields = ["id", "profile_version__profile__name", "target__name", "source_host"]
    actions = ["cancel", "retire", "restore"]
    inlines = [SummaryInline]

    def get_readonly_fields(self, request, obj=None) -> list[str]:
        return [f.name for f in Run._meta.fields]

    def has_add_permission(self, request) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        # A plan or a share may rest on a run: retire it instead (no delete, no bulk delete).
        return False

    @admin.action(description=_("Retire the selected runs (kept, never used to size a plan)"))
    def retire(self, request: HttpRequest, queryset) -> None:
        count = queryset.retire()
        messages.success(
            request, ngettext("%(count)d run retired.", "%(count)d runs retired.", count)
            % {"count": count},
        )  # fmt: skip

    @admin.action(description=_("Restore the selected retired runs as evidence"))
    def restore(self, request: HttpRequest, queryset) -> None:
        count = queryset.restore()
        messages.success(
            request, ngettext("%(count)d run restored.", "%(count)d runs restored.", count)
            % {"count": count},
        )  # fmt: skip

    @admin.action(description=_("Cancel the selected queued or running runs"))
    def cancel(self, request: HttpRequest, queryset) -> None:
        for run in queryset.filter(status__in=Run.ACTIVE):
            cancel_run(run, request.user)
        messages.success(request, _("Cancel requested."))
