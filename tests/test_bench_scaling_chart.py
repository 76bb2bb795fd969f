"""The thread-scaling chart: measured points and labelled fits, byte-stable SVG."""

from benchmarks_app import charts, scaling

THREADS = [1, 2, 4, 8]
VALUES = [100 * k / (1 + 0.05 * (k - 1)) for k in THREADS]


def data(**changes) -> dict:
    fits = [scaling.fit_amdahl(THREADS, VALUES), scaling.fit_usl(THREADS, VALUES)]
    points = [(k, v, v * 0.98, v * 1.02) for k, v in zip(THREADS, VALUES, strict=True)]
    base = {"title": "toy on here", "unit": "cell-trees/s", "points": points, "fits": fits,
            "usable": 16}  # fmt: skip
    base.update(changes)
    return charts.chart_data(**base)


def test_the_same_data_draws_the_same_bytes():
    first, second = charts.scaling_svg(data(), "en"), charts.scaling_svg(data(), "en")
    assert first == second and first.startswith(b"<?xml")
    assert charts.content_key(data(), "en") == charts.content_key(data(), "en")
    assert charts.content_key(data(), "en") != charts.content_key(data(), "de")


def test_fits_are_labelled_and_extrapolation_beyond_the_sweep_is_marked():
    svg = charts.scaling_svg(data(), "en").decode()
    assert "Amdahl fit, R² 1.000" in svg and "USL fit" in svg
    assert "Amdahl fit (extrapolated beyond 8 threads)" in svg
    assert "USL fit (extrapolated beyond 8 threads)" in svg
    assert "measured median (bars: min-max)" in svg and "hardware threads" in svg
    assert "<dc:date>" not in svg


def test_too_few_points_draw_the_points_and_say_why_there_is_no_fit():
    fits = [scaling.fit_amdahl([1, 2], VALUES[:2]), scaling.fit_usl([1, 2], VALUES[:2])]
    svg = charts.scaling_svg(
        data(points=[(1, 100, 99, 101), (2, 190, 188, 192)], fits=fits), "en"
    ).decode()
    assert "not enough points: Amdahl needs ≥ 3 distinct thread counts, got 2" in svg
    assert "extrapolated" not in svg and "measured median" in svg
