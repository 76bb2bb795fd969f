"""Shipped profile files load as versions; reloads duplicate nothing and never
overwrite a staff edit; a staff edit is a new version."""

import json

import pytest

from benchmarks_app.models import Profile, ProfileVersion, content_hash
from benchmarks_app.profiles_loader import (
    EditRefused,
    edit_profile,
    load_shipped_profiles,
    validate_content,
)
from tests.support.bench import SHIPPED, content

pytestmark = pytest.mark.django_db


def write(directory, body: dict) -> None:
    (directory / f"{body['name']}.json").write_text(json.dumps(body))


def test_it_loads_each_file_as_a_version_with_its_content_hash(tmp_path):
    write(tmp_path, content("toy-a"))
    write(tmp_path, content("toy-b", workload_class="sklearn", runner="sklearn"))
    report = load_shipped_profiles(tmp_path)
    assert sorted(report.added) == ["toy-a 1.0.0", "toy-b 1.0.0"]
    version = ProfileVersion.objects.get(profile__name="toy-b")
    assert version.source == "shipped"
    assert version.content_hash == content_hash(content("toy-b", workload_class="sklearn",
                                                        runner="sklearn"))  # fmt: skip
    assert version.profile.workload_class == "sklearn"
    assert version.series == "1.0"


def test_reloading_the_same_files_changes_nothing(tmp_path):
    write(tmp_path, content("toy-a"))
    load_shipped_profiles(tmp_path)
    report = load_shipped_profiles(tmp_path)
    assert report.added == [] and report.unchanged == ["toy-a 1.0.0"]
    assert ProfileVersion.objects.count() == 1


def test_a_new_file_version_adds_a_version_and_keeps_the_old_one(tmp_path):
    write(tmp_path, content("toy-a"))
    load_shipped_profiles(tmp_path)
    write(tmp_path, content("toy-a", version="1.1.0", title="Toy GBM, deeper"))
    report = load_shipped_profiles(tmp_path)
    assert report.added == ["toy-a 1.1.0"]
    profile = Profile.objects.get(name="toy-a")
    assert [v.version for v in profile.versions.all()] == ["1.1.0", "1.0.0"]
    assert profile.current_version().version == "1.1.0"
    assert profile.title == "Toy GBM, deeper"


def test_a_staff_edit_is_a_new_version_and_reloading_never_overwrites_it(tmp_path, staff_user):
    write(tmp_path, content("toy-a"))
    load_shipped_profiles(tmp_path)
    base = ProfileVersion.objects.get()
    edited = edit_profile(
        base, {**base.content, "params": {**base.content["params"], "trees": 9}},
        part="patch", user=staff_user,
    )  # fmt: skip
    assert (edited.version, edited.source, edited.created_by) == ("1.0.1", "staff", staff_user)
    assert edited.content["params"]["trees"] == 9 and edited.content["version"] == "1.0.1"
    base.refresh_from_db()
    assert base.content["params"]["trees"] == 5  # history untouched

    # The code later ships its own, different 1.0.1: the staff edit stays.
    write(tmp_path, content("toy-a", version="1.0.1"))
    report = load_shipped_profiles(tmp_path)
    assert report.conflicts == ["toy-a 1.0.1"]
    edited.refresh_from_db()
    assert edited.source == "staff" and edited.content["params"]["trees"] == 9


def test_a_staff_edit_that_changes_nothing_or_breaks_the_schema_is_refused(staff_user, tmp_path):
    write(tmp_path, content("toy-a"))
    load_shipped_profiles(tmp_path)
    base = ProfileVersion.objects.get()
    with pytest.raises(EditRefused, match="nothing changed"):
        edit_profile(base, dict(base.content), part="patch", user=staff_user)
    broken = {**base.content, "scales": {"smoke": {"threads": [0], "time_budget_s": 5}}}
    with pytest.raises(EditRefused, match="threads"):
        edit_profile(base, broken, part="minor", user=staff_user)
    assert ProfileVersion.objects.count() == 1


def test_invalid_files_are_reported_and_skipped(tmp_path):
    (tmp_path / "broken.json").write_text("{not json")
    write(tmp_path, content("toy-a", version="one"))
    report = load_shipped_profiles(tmp_path)
    assert len(report.invalid) == 2 and "version must be X.Y.Z" in str(report)
    assert not ProfileVersion.objects.exists()


def test_a_file_giving_a_key_twice_is_reported_with_where_and_skipped(tmp_path):
    text = json.dumps(content("toy-a"), indent=1)
    text = text.replace('"runner": "gbm"', '"runner": "gbm",\n "runner": "sklearn"')
    (tmp_path / "toy-a.json").write_text(text)
    report = load_shipped_profiles(tmp_path)
    assert report.invalid == ["toy-a.json: $.runner is given twice (line 5, column 2)"]
    assert not Profile.objects.exists()


def test_every_shipped_profile_file_is_valid():
    files = sorted(SHIPPED.glob("*.json"))
    assert files, "no shipped profiles"
    for path in files:
        body = json.loads(path.read_text())
        assert validate_content(body) == [], path.name
        assert path.stem == body["name"]
