"""The one JSON loader: what the standard library takes silently or crashes on is refused,
each refusal naming its JSON path, line and column; numbers are exact."""

from decimal import Decimal

import pytest

from common.safejson import JsonRefused, loads


def refused(data, **options) -> JsonRefused:
    with pytest.raises(JsonRefused) as caught:
        loads(data, **options)
    return caught.value


def test_numbers_with_a_fraction_are_exact_decimals_and_integers_stay_integers():
    assert loads(b'{"a": 0.1, "b": [2.50, 7, -1e-3]}') == {
        "a": Decimal("0.1"),
        "b": [Decimal("2.50"), 7, Decimal("-0.001")],
    }
    assert loads('{"a": 0.1}', decimals=False) == {"a": 0.1}


def test_a_document_nested_100000_levels_deep_is_refused_at_the_level_past_the_limit():
    deep = '{"workloads": ' + "[" * 100_000 + "]" * 100_000 + "}"
    error = refused(deep, max_depth=32)
    assert error.path == "workloads" + "[0]" * 31  # the 33rd container: root, list, 31 more
    assert (error.line, error.column) == (1, 15 + 31)
    assert str(error).startswith("nested deeper than 32 levels at $.workloads[0][0]")


def test_a_duplicate_key_is_refused_where_it_is_given_the_second_time():
    error = refused('{\n  "prices": [],\n  "exchange_rates": [],\n  "prices": [1]\n}')
    assert (error.path, error.line, error.column) == ("prices", 4, 3)
    assert str(error) == "$.prices is given twice (line 4, column 3)"
    nested = refused('{"x": [{"q": 1, "q": 1}]}')
    assert nested.path == "x[0].q"


@pytest.mark.parametrize("body", ['{"name": "a\\u0000b"}', b'{"name": "a\x00b"}'])
def test_a_nul_in_a_string_escaped_or_raw_is_refused_with_its_path(body):
    error = refused(body)
    assert error.path == "name"
    assert str(error) == "a NUL character in the string at $.name (line 1, column 10)"


def test_a_nul_in_a_key_is_refused_too():
    assert refused('{"ok": {"a\\u0000": 1}}').message.code == "common.json.nul"


@pytest.mark.parametrize("escape", ["\\ud800", "\\udc00", "\\ud83d x"])
def test_a_lone_surrogate_is_refused_and_a_pair_is_one_character(escape):
    error = refused('{"items": ["fine", "a' + escape + '"]}')
    assert error.path == "items[1]"
    assert "lone UTF-16 surrogate" in str(error)
    assert loads('{"name": "\\ud83d\\ude00"}') == {"name": "\U0001f600"}


def test_a_lone_surrogate_in_a_python_string_is_refused():
    assert refused('{"name": "a\ud800"}').path == "name"


def test_an_integer_of_400_digits_is_refused_before_it_is_converted():
    error = refused('{"workloads": [{"rows": 1' + "0" * 400 + "}]}")
    assert error.path == "workloads[0].rows"
    assert (
        str(error) == "a number of more than 40 digits at $.workloads[0].rows (line 1, column 25)"
    )


def test_a_large_exponent_is_an_exact_decimal_not_infinity():
    assert loads('{"x": 1e400}') == {"x": Decimal("1E+400")}


def test_an_exponent_past_a_thousand_is_refused_before_decimal_sees_it():
    error = refused('{"x": [5E-999999999999999999999]}')
    assert str(error) == "a number with an exponent beyond ±1000 at $.x[0] (line 1, column 8)"


def test_nan_and_infinity_are_refused_unless_the_caller_says_what_they_become():
    error = refused('{"rate": NaN}')
    assert str(error) == "NaN is not a number this format accepts, at $.rate (line 1, column 10)"
    assert refused("[1, -Infinity]").path == "[1]"
    assert loads('{"rate": Infinity}', constants=float) == {"rate": float("inf")}


def test_bytes_that_are_not_utf8_are_refused_with_the_byte_named():
    error = refused(b'{"a": 1,\n "b": "\xff"}')
    assert (error.line, str(error)) == (2, "not UTF-8 text at byte 16 (line 2)")


def test_malformed_json_names_the_line_and_column():
    error = refused('{"a": 1,\n  "b": }')
    assert (error.line, error.column) == (2, 8)
    assert str(error) == "Expecting value (line 2, column 8)"


def test_an_escaped_backslash_before_u0000_is_text_not_a_nul():
    assert loads('{"path": "C:\\\\u0000"}') == {"path": "C:\\u0000"}


def test_a_refusal_is_a_value_error_with_the_line_callers_already_read():
    error = refused('{"a": 1, "a": 2}')
    assert isinstance(error, ValueError)
    assert error.lineno == 1
