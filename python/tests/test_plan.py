"""memplan.plan on every input kind, its options, and its results."""

import json

import memplan
import pytest

from conftest import SHARED_DIR, SOURCE_DIR

# Three buffers by hand: a [0,2] and c [3,4] never live together; b [1,3]
# overlaps both. Best fit places the largest (b, 8 bytes) at 0 and a and c
# above it, sharing bytes 8..11: peak 12 = the max-live lower bound.
THREE = [(4, 0, 2), (8, 1, 3), (4, 3, 4)]


def test_tuples_plan_at_the_lower_bound():
    plan = memplan.plan(THREE)
    assert (plan.peak, plan.lower_bound) == (12, 12)
    assert [b.offset for b in plan.buffers] == [8, 0, 8]
    assert [(b.start, b.end, b.size) for b in plan.buffers] == [(0, 2, 4), (1, 3, 8), (3, 4, 4)]
    assert plan.verified and plan.verify()
    assert plan.input == "buffers"


def test_dicts_closed_and_half_open_ranges_mean_the_same():
    closed = memplan.plan([{"size": 4, "start": 0, "end": 2, "id": "a"},
                           {"size": 8, "start": 1, "end": 3, "id": "b"},
                           {"size": 4, "start": 3, "end": 4, "id": "c"}], name="three")
    half_open = memplan.plan([{"size": 4, "lower": 0, "upper": 3, "id": "a"},
                              {"size": 8, "lower": 1, "upper": 4, "id": "b"},
                              {"size": 4, "lower": 3, "upper": 5, "id": "c"}], name="three")
    assert closed.to_json() == half_open.to_json()
    assert [b.name for b in closed.buffers] == ["a", "b", "c"]
    assert closed.input == "three"


def test_alignment_option_and_per_buffer_alignment():
    plan = memplan.plan([{"size": 3, "start": 0, "end": 1}, {"size": 5, "start": 0, "end": 1,
                                                            "alignment": 16}], alignment=4)
    assert plan.alignment == 4
    assert all(b.offset % 4 == 0 for b in plan.buffers)
    assert plan.buffers[1].offset % 16 == 0
    assert plan.verify()


def test_algorithm_option_is_reported():
    plan = memplan.plan(THREE, algorithm="naive")
    assert plan.algorithm == "naive"
    assert plan.peak == 16


def test_csv_file_json_equals_the_cli_byte_for_byte(cli, tmp_path):
    path = SOURCE_DIR / "tests/data/csv/compare_peers.csv"
    code, out, _ = cli("plan", path, "--json", "-")
    assert code == 0
    assert memplan.plan(str(path)).to_json() == out


def test_text_ir_with_fast_memory_equals_the_cli(cli, monkeypatch):
    # The JSON records the path as given: plan from the CLI's directory.
    monkeypatch.chdir(SOURCE_DIR)
    code, out, _ = cli("plan", "examples/mlp.mpir", "--fast-memory", "64KiB", "--json", "-")
    assert code == 0
    plan = memplan.plan("examples/mlp.mpir", fast_memory="64KiB")
    assert plan.to_json() == out
    assert plan.msa is not None and plan.msa["target"] == "edge-npu"
    assert [s.name for s in plan.spaces] == ["default", "alternate"]
    assert plan.verify()


def test_sliced_prefetch_keyword_slices_a_prefetch(monkeypatch):
    # docs/msa.md "Sliced prefetch": w2's prefetch in two slices, its high
    # half first, the whole value at fast-memory offset 32 from step 4.
    monkeypatch.chdir(SOURCE_DIR)
    plan = memplan.plan("tests/data/mpir/two_weights.mpir",
                        target="tests/data/msa/two_weights_target.json",
                        picker="instruction-count", no_cross_program_prefetch=True,
                        assign_first="w.*", sliced_prefetch=2)
    assert plan.msa["variant"] == "reference-sliced-2"
    assert plan.msa["sliced_prefetches"] == 1 and plan.msa["prefetch_slices"] == 2
    slices = [(c["start"], c["done"], c["slice_index"], c["slice_offset"], c["bytes"])
              for c in json.loads(plan.to_json())["async_copies"] if "slice_index" in c]
    assert slices == [(3, 6, 0, 32, 32), (4, 6, 1, 0, 32)]
    assert plan.verify()


def test_window_prefetch_keyword_adds_a_window(monkeypatch):
    # docs/msa.md "Window prefetch": a 64-byte window of the matmul's
    # 256-byte weight at fast-memory offset 32, copied from step 1 to 3.
    monkeypatch.chdir(SOURCE_DIR)
    plan = memplan.plan("tests/data/mpir/window_matmul.mpir",
                        target="tests/data/msa/window_target.json", window_prefetch=64)
    assert plan.msa["variant"] == "reference+window-64"
    assert plan.msa["window_prefetches"] == 1 and plan.msa["window_prefetch_bytes"] == 64
    windows = [(c["start"], c["done"], c["window_op"], c["window_offset"], c["bytes"])
               for c in json.loads(plan.to_json())["async_copies"] if "window_op" in c]
    assert windows == [(1, 3, 3, 32, 64)]
    assert plan.verify()


def test_onnx_model_plans_and_verifies(examples):
    plan = memplan.plan(examples / "mobilenet_v2.onnx")
    assert plan.verified and plan.verify()
    assert plan.peak >= plan.lower_bound > 0
    assert {p.lifetime for p in plan.pools} >= {"transient", "constant"}
    assert "mobilenet_v2.onnx" in plan.summary


def test_block_prefetch_keyword_reserves_a_block(monkeypatch):
    # docs/msa.md "Block prefetching": the three constant weights (not the
    # input x) through a 64-byte block at offset 32, kept by default mode
    # because it is faster.
    monkeypatch.chdir(SOURCE_DIR)
    plan = memplan.plan("tests/data/mpir/three_weights.mpir",
                        target="tests/data/msa/two_weights_target.json",
                        picker="instruction-count", block_prefetch=64)
    assert plan.msa["variant"] == "reference-block-64"
    assert plan.msa["block_prefetch"] == {"offset": 32, "size": 64, "prefetches": 3}
    assert plan.verify()


def test_dims_and_capacity_dicts_become_repeated_flags(tmp_path):
    ir = tmp_path / "dims.mpir"
    ir.write_text((SOURCE_DIR / "examples/basic.mpir").read_text())
    plan = memplan.plan(ir)
    with pytest.raises(memplan.Error) as error:
        memplan.plan(ir, capacity={"transient": plan.peak - 1})
    assert error.value.exit_code == 1
    assert f"--capacity transient={plan.peak - 1}" in error.value.message
    assert memplan.plan(ir, capacity={"transient": plan.peak}).peak == plan.peak


def test_outputs_are_written(tmp_path):
    svg = tmp_path / "map.svg"
    memplan.plan(THREE, svg=str(svg))
    assert "<svg" in svg.read_text()


@pytest.mark.skipif(not (SHARED_DIR / "data/minimalloc/input.12.csv").exists(),
                    reason="../shared is absent")
def test_shared_minimalloc_example():
    plan = memplan.plan(SHARED_DIR / "data/minimalloc/input.12.csv")
    assert plan.peak == plan.lower_bound
    assert plan.verify()


def test_fixed_offsets_in_a_buffer_list_are_kept():
    # b is pinned at 4: a (live with b) must go around it, c (alone) too.
    plan = memplan.plan([{"id": "a", "size": 4, "start": 0, "end": 1},
                         {"id": "b", "size": 4, "start": 0, "end": 2, "offset": 4},
                         {"id": "c", "size": 8, "start": 3, "end": 3}])
    assert {b.name: b.offset for b in plan.buffers} == {"a": 0, "b": 4, "c": 0}
    assert (plan.peak, plan.lower_bound) == (8, 8)
    assert plan.verify()


@pytest.mark.skipif(not (SHARED_DIR / "data/tflite/person_detect.tflite").exists(),
                    reason="../shared is absent")
def test_tflite_model_equals_the_cli(cli):
    path = SHARED_DIR / "data/tflite/person_detect.tflite"
    code, out, _ = cli("plan", path, "--json", "-")
    assert code == 0
    plan = memplan.plan(path)
    assert plan.to_json() == out
    assert plan.peak == 55296 and plan.verify()


# big (16 B, [0,9]) holds nothing during the half-open steps [3,6); mid
# (16 B, [3,5]) fits in its bytes then: peak 16 = the lower bound, both at 0.
# Without the gap they need 32.
def test_dict_gaps_free_bytes_like_the_csv_column():
    with_gaps = memplan.plan([{"id": "big", "size": 16, "start": 0, "end": 9, "gaps": "3-6"},
                              {"id": "mid", "size": 16, "start": 3, "end": 5}])
    assert (with_gaps.peak, with_gaps.lower_bound) == (16, 16)
    assert [b.offset for b in with_gaps.buffers] == [0, 0]
    assert with_gaps.verify()
    as_pairs = memplan.plan([{"id": "big", "size": 16, "start": 0, "end": 9, "gaps": [(3, 6)]},
                             {"id": "mid", "size": 16, "start": 3, "end": 5}])
    assert as_pairs.to_json() == with_gaps.to_json()
    without = memplan.plan([{"id": "big", "size": 16, "start": 0, "end": 9},
                            {"id": "mid", "size": 16, "start": 3, "end": 5}])
    assert without.peak == 32


def test_dict_gaps_windows_offset_and_alignment_together():
    plan = memplan.plan([{"id": "w", "size": 16, "lower": 0, "upper": 10,
                          "gaps": [(3, 6, 0, 8)], "offset": 0, "alignment": 8},
                         {"id": "v", "size": 8, "lower": 3, "upper": 6, "alignment": 8}])
    assert plan.verified and plan.verify()
    assert plan.buffers[0].offset == 0
    assert plan.buffers[1].offset % 8 == 0


def test_dict_gaps_errors_name_the_buffer():
    with pytest.raises(memplan.Error) as e:
        memplan.plan([{"size": 4, "start": 0, "end": 9, "gaps": 3}])
    assert "buffers[0]: error: 'gaps' must be a string or a list, got 3" in str(e.value)
    with pytest.raises(memplan.Error) as e:
        memplan.plan([{"size": 4, "start": 0, "end": 9, "gaps": [(1, 2, 3)]}])
    assert "buffers[0]: error: 'gaps' entries are" in str(e.value)


def test_every_value_has_its_address():
    # concat_views.mpir gathers %a at byte 0 and %b at byte 4096 of %c.
    plan = memplan.plan(str(SOURCE_DIR / "examples/concat_views.mpir"))
    concat = next(b for b in plan.buffers if "c" in b.values)
    offsets = dict(zip(concat.values, concat.value_offsets))
    assert (offsets["a"], offsets["b"], offsets["c"]) == (0, 4096, 0)
    base = concat.allocations[0].offset
    assert [a.offset for a in concat.value_allocations("b")] == [base + 4096]
    with pytest.raises(KeyError):
        concat.value_allocations("y")


def test_live_bytes_profile_peaks_at_the_lower_bound():
    np = pytest.importorskip("numpy")
    plan = memplan.plan(THREE)
    live = plan.live_bytes()
    assert isinstance(live, np.ndarray)
    assert live.tolist() == [4, 12, 12, 12, 4]
    assert live.max() == plan.lower_bound
    assert plan.live_bytes(space=1).tolist() == [0] * 5


def test_html_repr_and_plot():
    plan = memplan.plan(THREE, name="three")
    page = plan._repr_html_()
    assert "<th style='text-align:left'>peak</th><td>12 bytes</td>" in page
    assert "three" in page
    pytest.importorskip("matplotlib")
    fig = plan.plot()
    live_ax, map_ax = fig.axes
    assert len(map_ax.patches) == 3
    assert map_ax.get_ylim() == (0, 12)
    assert live_ax.lines[0].get_ydata().tolist() == [4, 12, 12, 12, 4]
    assert live_ax.get_title() == "three: default memory, transient pool; packed by best-fit-spatial"


def test_loop_optimizer_keyword_plans_the_unrolled_loop(monkeypatch):
    # docs/msa.md "Memory-bound loop optimizer": the loop of period 3 at
    # steps 1..12, kept by default mode because it is faster.
    monkeypatch.chdir(SOURCE_DIR)
    plan = memplan.plan("tests/data/mpir/unrolled_loop.mpir",
                        target="tests/data/msa/unrolled_loop_target.json", loop_optimizer=True)
    assert plan.msa["variant"] == "reference-loop"
    (loop,) = plan.msa["loops"]
    assert (loop["start"], loop["period"], loop["iterations"], loop["chosen"]) == (1, 3, 4, True)
    assert (loop["pinned"], loop["prefetch"]) == (1, 5)
    assert plan.verify()
