"""memplan.from_fx: PyTorch modules traced with torch.fx and planned."""

import memplan
import pytest

from conftest import SHARED_DIR

torch = pytest.importorskip("torch")


class Block(torch.nn.Module):
    """A view, an in-place relu and an in-place add, by hand."""

    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(16, 16)

    def forward(self, x):
        y = self.fc(x.view(4, 16))       # view of the input
        y = torch.relu_(y)               # written in place over the linear's result
        z = y[1:3]                       # rows 1..2: a view at byte 64
        z.add_(1)                        # in place again
        return z.flatten() * 2           # a new tensor: the program's output


def test_views_and_in_place_ops_share_storage():
    program = memplan.from_fx(Block(), (torch.randn(64),))
    plan = memplan.plan(program)
    assert plan.verify()
    by_name = {b.name: b for b in plan.buffers}
    fc = by_name["fc"]
    # The linear's result, the relu_ written over it, the slice, the += and
    # the flatten: one buffer of 4x16 floats.
    assert fc.values == ("fc", "relu_", "getitem", "add_", "flatten")
    assert fc.size == 256
    assert fc.value_offsets == (0, 0, 64, 64, 64)
    assert by_name["fc.weight"].lifetime == "constant"
    assert by_name["x"].values == ("x", "view")
    assert fc.lifetime == "transient" and plan.peak == 256


def test_eval_batchnorm_is_folded_into_its_convolution():
    net = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.BatchNorm2d(8),
                              torch.nn.ReLU(inplace=True), torch.nn.Flatten(),
                              torch.nn.Linear(512, 4)).eval()
    plan = memplan.plan(memplan.from_fx(net, (torch.randn(1, 3, 8, 8),)))
    names = [b.name for b in plan.buffers if b.lifetime == "transient"]
    # The convolution, the folded BN, the in-place ReLU and the flatten: one buffer.
    assert names == ["_0"]
    assert plan.peak == 8 * 8 * 8 * 4
    train = memplan.plan(memplan.from_fx(net.train(), (torch.randn(2, 3, 8, 8),)))
    assert [b.name for b in train.buffers if b.lifetime == "transient"] == ["_0", "_1"]


torchvision = pytest.importorskip("torchvision")


def onnx_peak(model):
    path = SHARED_DIR / "data" / "onnx" / "torchvision" / f"{model}.onnx"
    if not path.exists():
        return None
    return memplan.plan(str(path), algorithm="best-fit-spatial").peak


@pytest.mark.parametrize("model", ["resnet18", "mobilenet_v2"])
def test_torchvision_models_plan_like_their_onnx_export(model):
    torch.manual_seed(0)
    net = getattr(torchvision.models, model)().eval()
    program = memplan.from_fx(net, (torch.randn(1, 3, 224, 224),))
    plan = memplan.plan(program, algorithm="best-fit-spatial")
    assert plan.verify()
    assert plan.peak >= plan.lower_bound > 0
    onnx = onnx_peak(model)
    if onnx is None:
        pytest.skip("../shared/data/onnx is absent")
    assert abs(plan.peak - onnx) <= 0.01 * onnx, (plan.peak, onnx)


def test_transformer_encoder_layer_plans():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(64, 4, 128, batch_first=True).eval()
    program = memplan.from_fx(layer, (torch.randn(1, 16, 64),))
    plan = memplan.plan(program)
    assert plan.verify()
    # 16 tokens x 64 floats = 4 KiB per activation; the feed-forward's
    # hidden layer is 8 KiB.
    assert plan.lower_bound >= 8192
    assert plan.peak >= plan.lower_bound
