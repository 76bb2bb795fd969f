from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from estimates import scores


class Command(BaseCommand):
    help = (
        "Rebuild the shipped speed-score table (and the GBM scaling curves) from newer files: "
        "Spare Cores' per-server scores and/or GBM-perf's multicore results."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("paths", nargs="+", metavar="PATH")
        parser.add_argument("--out-dir", default=str(scores.DATA), help="where the tables go")

    def handle(self, *args, paths: list[str], out_dir: str, **options) -> None:
        try:
            counts = scores.refresh(paths, Path(out_dir))
        except scores.TableError as exc:
            raise CommandError(str(exc)) from None
        for kind, count in counts.items():
            self.stdout.write(f"{kind}: {count} rows written to {out_dir}")
