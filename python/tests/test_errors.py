"""memplan.Error carries the command line's located message and exit code."""

import memplan
import pytest


def error_of(*args, **kwargs):
    with pytest.raises(memplan.Error) as error:
        memplan.plan(*args, **kwargs)
    return error.value


def test_missing_file_is_exit_2_with_its_path(tmp_path):
    error = error_of(tmp_path / "nope.csv")
    assert error.exit_code == 2
    assert str(tmp_path / "nope.csv") in error.message


def test_malformed_csv_is_located(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("id,lower,upper,size\na,0,3,4\nb,5,2,8\n")
    error = error_of(path)
    assert error.exit_code == 2
    assert error.message.startswith(f"{path}:3:")


def test_unknown_option_is_a_usage_error():
    error = error_of([(4, 0, 1)], fastest=True)
    assert error.exit_code == 2
    assert error.message.startswith("memplan: error:")
    assert "'fastest='" in error.message


def test_misspelled_keyword_is_named_as_python_spells_it():
    error = error_of([(4, 0, 1)], fast_memry="2MiB")
    assert error.exit_code == 2
    assert error.message == ("memplan: error: plan() got an unknown keyword argument "
                             "'fast_memry=' (did you mean fast_memory=?)")
    error = error_of([(4, 0, 1)], zzzzzz=True)
    assert error.message == "memplan: error: plan() got an unknown keyword argument 'zzzzzz='"


def test_bad_option_value_names_the_flag():
    error = error_of([(4, 0, 1)], algorithm="quantum")
    assert error.exit_code == 2
    assert "unknown packing algorithm 'quantum'" in error.message


def test_json_option_is_refused():
    assert error_of([(4, 0, 1)], json="x.json").exit_code == 2


@pytest.mark.parametrize("buffers, text", [
    ([(4, 2, 1)], "buffers[0]: error: 'end' must be an integer >= 2, got 1"),
    ([(-1, 0, 1)], "buffers[0]: error: 'size' must be an integer >= 0, got -1"),
    ([(4, 0, 1), (4, 0)], "buffers[1]: error: expected (size, start, end) or a dict, got (4, 0)"),
    ([{"size": 4, "start": 0}], "buffers[0]: error: give start and end (closed) or lower and "
                                "upper (half-open)"),
    ([{"size": 4, "start": 0, "end": 1, "colour": 2}], "buffers[0]: error: unknown key 'colour'"),
    ([{"size": 4.5, "start": 0, "end": 1}], "buffers[0]: error: 'size' must be an integer >= 0"),
    ([{"size": True, "start": 0, "end": 1}], "buffers[0]: error: 'size' must be an integer"),
    ([{"id": "a,b", "size": 4, "start": 0, "end": 1}], "buffers[0]: error: id 'a,b'"),
])
def test_bad_buffer_lists_name_the_buffer(buffers, text):
    error = error_of(buffers)
    assert error.exit_code == 2
    assert error.message.startswith(text)


def test_a_repeated_id_names_both_buffers():
    error = error_of([{"id": "a", "size": 4, "start": 0, "end": 1},
                      {"id": "b", "size": 4, "start": 0, "end": 1},
                      {"id": "a", "size": 4, "start": 0, "end": 1}], name="mine")
    assert error.exit_code == 2
    assert error.message == "buffers[2]: error: duplicate id 'a' (first buffers[0])"


@pytest.mark.parametrize("source", [42, b"/tmp/x.csv", None])
def test_a_source_that_is_neither_path_nor_list_is_an_error(source):
    error = error_of(source)
    assert error.exit_code == 2
    assert error.message.startswith("memplan: error: plan() takes a path or a list of buffers")


def test_error_is_an_exception_with_the_message():
    error = error_of([(4, 2, 1)])
    assert isinstance(error, Exception)
    assert str(error) == error.message
