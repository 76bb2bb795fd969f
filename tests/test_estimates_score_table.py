"""The shipped speed-score table: derived from the public data, with source, date and
licence on every row, its licence and attribution beside it, and a command to refresh it."""

import csv

import pytest
from django.core.management import CommandError, call_command

from estimates import scores
from tests.support.speed import GBMPERF, SPARECORES, speed_file


def test_every_row_says_source_date_and_licence():
    rows = list(csv.DictReader(scores.SCORES_FILE.open()))
    assert {r["row_kind"] for r in rows} == {"server", "cpu"}
    for row in rows:
        assert row["source"] == "Spare Cores (sparecores.com), sc-inspector-data"
        assert row["licence"] == "CC BY-SA 4.0"
        assert row["date"][:2] == "20"
    scaling = list(csv.DictReader(scores.SCALING_FILE.open()))
    assert {r["licence"] for r in scaling} == {"MIT"}


def test_licence_and_attribution_sit_beside_the_table():
    attribution = (scores.DATA / "ATTRIBUTION.md").read_text()
    assert "Spare Cores (sparecores.com), sc-inspector-data" in attribution
    assert "CC BY-SA 4.0" in attribution and "share-alike" in attribution
    assert "creativecommons.org/licenses/by-sa/4.0" in (scores.DATA / "LICENSE").read_text()


def test_shipped_table_is_what_the_reference_data_gives():
    with speed_file(SPARECORES).open() as handle:
        rebuilt = scores.render(scores.build_scores(csv.DictReader(handle)), scores.COLUMNS)
    assert rebuilt == scores.SCORES_FILE.read_text()
    with speed_file(GBMPERF).open() as handle:
        curves = scores.render(scores.build_scaling(csv.DictReader(handle)), scores.SCALING_COLUMNS)
    assert curves == scores.SCALING_FILE.read_text()


def test_one_row_per_server_type_and_per_cpu_model():
    table = scores.load()
    c5 = table.server("aws", "c5.4xlarge")
    assert (c5.cpu_key, c5.vcpus, c5.values["pm_single_thread"]) == ("xeon-8275cl", 16, 2095.9)
    epyc = table.cpu("epyc-4345p")
    assert epyc.n_servers == 2 and epyc.values["pm_single_thread"] == pytest.approx(4625.55)
    assert table.cpu("epyc-4545p") is None  # no public row covers it
    assert {s.cpu_key for s in table.neighbours("epyc-4")} >= {"epyc-4345p", "epyc-4245p"}


def test_refresh_command_rebuilds_from_newer_files(tmp_path):
    newer = tmp_path / "newer.csv"
    with speed_file(SPARECORES).open() as source:
        reader = csv.DictReader(source)
        with newer.open("w", newline="") as out:
            writer = csv.DictWriter(out, fieldnames=reader.fieldnames)
            writer.writeheader()
            for row in reader:
                if row["vendor"] == "vultr":
                    writer.writerow(row)
    call_command("refresh_speed_scores", str(newer), "--out-dir", str(tmp_path))
    rebuilt = scores.read_table((tmp_path / "speed_scores.csv").read_text())
    assert {v for v, _ in rebuilt.servers} == {"vultr"}
    assert rebuilt.cpu("epyc-4345p") is not None
    assert not (tmp_path / "gbm_scaling.csv").exists()  # no GBM-perf file given: kept as is


def test_refresh_refuses_a_file_it_does_not_know_and_writes_nothing(tmp_path):
    good = speed_file(SPARECORES)
    bad = tmp_path / "prices.csv"
    bad.write_text("slug,amount\nx,1\n")
    with pytest.raises(CommandError, match=r"prices\.csv, line 1: neither Spare Cores"):
        call_command("refresh_speed_scores", str(good), str(bad), "--out-dir", str(tmp_path))
    assert not (tmp_path / "speed_scores.csv").exists()
