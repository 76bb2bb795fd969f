from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from benchmarks_app import tier_links
from benchmarks_app.run_files import ImportRefused, import_run
from common import safejson
from common.messages import plain


class Command(BaseCommand):
    help = "Import a run file exported on another installation (labelled with its host)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")
        parser.add_argument("--tier", help="the catalog tier the run was made on (its key)")

    def handle(self, *args, file: str, tier: str | None = None, **options) -> None:
        try:
            # Floats, not decimals: the run is stored as JSON again.
            data = safejson.loads(Path(file).read_bytes(), decimals=False)
        except (OSError, ValueError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from None
        if tier and not tier_links.offered(tier):
            raise CommandError(f"refused: no offered tier has the key {tier}")
        try:
            run = import_run(data)
        except ImportRefused as exc:
            raise CommandError("refused:\n  - " + "\n  - ".join(exc.problems)) from None
        self.stdout.write(
            f"imported run {run.pk}: {run.profile_version} {run.scale} measured on "
            f"{run.source_host} (target {run.target.name})"
        )
        if tier:
            differences = tier_links.warnings(run, tier)
            tier_links.link(run, tier)
            self.stdout.write(f"linked target {run.target.name} to tier {tier}")
            for difference in differences:  # as the admin's link says them
                self.stdout.write(f"warning: {plain(difference)}")
            return
        # No tier named: which catalog tiers the host could be, by CPU model and vCPUs.
        found = tier_links.suggestions(run)
        if found:
            names = ", ".join(m.slug + ("" if m.same_vcpus else " (other vCPUs)") for m in found)
            self.stdout.write(
                f"tiers with this host's CPU model: {names}; import again with --tier TIER "
                "(or link the target in the admin) to let the run size it"
            )
        else:
            self.stdout.write(
                "no catalog tier has this host's CPU model; link the target in the admin if "
                "you know which tier it is"
            )
