"""memplan.Program: the Python builder over the C++ API's ProgramBuilder."""

import shutil
import subprocess

import memplan
import pytest

from conftest import SOURCE_DIR


def basic():
    """examples/basic.mpir, built op by op."""
    p = memplan.Program("basic")
    main = p.add_function("main")
    p.set_entry(main)
    x = p.add_param(main, "x", "f32", [8, 16])
    bias = p.add_param(main, "bias", "f32", [16])
    p.set_lifetime(bias, "constant")
    g = p.add_result(p.add_op(main, "add", [x, bias], flops=128), "g", "f32", [8, 16])
    h = p.add_result(p.add_op(main, "relu", [g]), "h", "f32", [8, 16])
    p.tie(h, g)
    flat = p.add_result(p.add_op(main, "reshape", [h]), "flat", "f32", [128])
    p.view(flat, h, 0)
    row1 = p.add_result(p.add_op(main, "slice", [flat]), "row1", "f32", [16])
    p.view(row1, flat, 64)
    y = p.add_result(p.add_op(main, "exp", [row1], transcendentals=16), "y", "f32", [16])
    p.set_return(main, [y])
    return p


def while_loop():
    """examples/while_loop.mpir, built op by op."""
    p = memplan.Program("while_loop")
    main = p.add_function("main")
    cond = p.add_function("cond")
    body = p.add_function("body")
    p.set_entry(main)
    h0 = p.add_param(main, "h0", "f32", [16, 64])
    w = p.add_param(main, "w", "f32", [64, 64])
    p.set_lifetime(w, "constant")
    zero = p.add_result(p.add_op(main, "constant", []), "zero", "s32", [])
    i0 = p.add_result(p.add_op(main, "copy", [zero]), "i0", "s32", [])
    loop = p.add_while(main, [h0, i0, w], cond, body, trip_count=10)
    h = p.add_result(loop, "h", "f32", [16, 64])
    p.add_result(loop, "i", "s32", [])
    p.add_result(loop, "w_out", "f32", [64, 64])
    p.set_return(main, [h])
    ch = p.add_param(cond, "ch", "f32", [16, 64])
    ci = p.add_param(cond, "ci", "s32", [])
    p.add_param(cond, "cw", "f32", [64, 64])
    limit = p.add_result(p.add_op(cond, "constant", []), "limit", "s32", [])
    more = p.add_result(p.add_op(cond, "compare", [ci, limit]), "more", "pred", [])
    p.set_return(cond, [more])
    bh = p.add_param(body, "bh", "f32", [16, 64])
    bi = p.add_param(body, "bi", "s32", [])
    bw = p.add_param(body, "bw", "f32", [64, 64])
    m = p.add_result(p.add_op(body, "dot", [bh, bw], flops=131072), "m", "f32", [16, 64])
    t = p.add_result(p.add_op(body, "tanh", [m], transcendentals=1024), "t", "f32", [16, 64])
    p.tie(t, m)
    one = p.add_result(p.add_op(body, "constant", []), "one", "s32", [])
    nxt = p.add_result(p.add_op(body, "add", [bi, one]), "next", "s32", [])
    p.set_return(body, [t, nxt, bw])
    assert ch >= 0
    return p


def cli_json(cli_binary, example, tmp_path, *flags):
    """`memplan plan NAME --json -` on a copy of examples/NAME.mpir named NAME
    (so the JSON's input is the program's name, as for a built program)."""
    shutil.copy(SOURCE_DIR / "examples" / f"{example}.mpir", tmp_path / example)
    done = subprocess.run([cli_binary, "plan", example, *flags, "--json", "-"],
                          capture_output=True, text=True, cwd=tmp_path, check=True)
    return done.stdout


@pytest.fixture
def cli_binary():
    import os
    binary = os.environ.get("MEMPLAN_CLI")
    if not binary:
        pytest.skip("MEMPLAN_CLI is not set (run through ctest)")
    return binary


@pytest.mark.parametrize("build", [basic, while_loop])
def test_built_program_plans_byte_identical_to_the_cli(build, cli_binary, tmp_path):
    name = build.__name__
    assert memplan.plan(build()).to_json() == cli_json(cli_binary, name, tmp_path)
    fast = memplan.plan(build(), fast_memory="4KiB", alignment=64)
    assert fast.to_json() == cli_json(cli_binary, name, tmp_path, "--fast-memory", "4KiB",
                                      "--alignment", "64")
    assert fast.verify()


def test_basic_is_one_alias_set_of_512_bytes():
    p = basic().build()
    assert p.built and p.time_steps == 5
    assert p.schedule == ["%g", "%h", "%flat", "%row1", "%y"]
    plan = memplan.plan(p)
    by_name = {b.name: b for b in plan.buffers}
    assert by_name["g"].values == ("g", "h", "flat", "row1")
    assert by_name["g"].size == 512
    assert by_name["g"].value_offsets == (0, 0, 0, 64)
    assert by_name["bias"].lifetime == "constant"
    # %y is returned (external): the transient pool is %g's alias set alone.
    assert by_name["y"].lifetime == "external"
    assert (plan.peak, plan.lower_bound) == (512, 512)
    assert plan.verify()


def test_to_text_reads_back_as_the_same_program(cli_binary, tmp_path):
    (tmp_path / "basic").write_text(basic().to_text())
    done = subprocess.run([cli_binary, "plan", "basic", "--json", "-"], capture_output=True,
                          text=True, cwd=tmp_path, check=True)
    assert done.stdout == memplan.plan(basic()).to_json()


def test_build_errors_name_the_broken_rule():
    p = memplan.Program("bad")
    main = p.add_function("main")
    p.set_entry(main)
    x = p.add_param(main, "x", 64)
    y = p.add_result(p.add_op(main, "relu", [x]), "y", 32)
    p.tie(y, x)
    p.set_return(main, [y])
    with pytest.raises(memplan.Error) as e:
        p.build()
    assert e.value.exit_code == 2
    assert e.value.message == ("bad: error: tied result %y (32 bytes) must have the size of "
                               "operand %x (64 bytes)")
    with pytest.raises(memplan.Error, match="already built"):
        p.add_function("again")


def test_an_id_from_elsewhere_is_reported_by_build():
    p = memplan.Program("ids")
    main = p.add_function("main")
    p.set_entry(main)
    p.add_op(main, "exp", [7])
    with pytest.raises(memplan.Error, match="value id 7 is not one of this builder's"):
        p.build()


def test_capacity_too_small_and_unknown_options():
    with pytest.raises(memplan.Error) as e:
        memplan.plan(basic(), capacity={"transient": 100})
    assert e.value.exit_code == 1
    with pytest.raises(memplan.Error, match="unknown keyword argument 'no_alias='"):
        memplan.plan(basic(), no_alias=True)
    with pytest.raises(memplan.Error, match="unknown lifetime 'forever'"):
        memplan.Program().set_lifetime(0, "forever")
