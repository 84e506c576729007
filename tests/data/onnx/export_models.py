#!/usr/bin/python3
"""Exports the small real-structure models in tests/data/onnx/.

Run with Debian's interpreter (it has torch 1.13 and onnx 1.12):

    /usr/bin/python3 tests/data/onnx/export_models.py [OUT_DIR]

Every model is written in plain torch with tiny widths and depths (each file
stays well under 1 MB) but keeps the graph structure that real exports have:
shapes read back with `x.shape` at run time (Shape -> Gather -> Unsqueeze ->
Concat -> Reshape), `expand(B, -1, -1)` (ConstantOfShape -> Mul -> Equal ->
Where -> Expand), `torch.roll` and window partitions (Slice/Concat/Reshape),
`interpolate(size=other.shape[-2:])` (Shape -> Slice -> Concat -> Resize).
They are exported at fixed input shapes (no dynamic_axes), except
`symbolic_inputs.onnx`, whose batch and sequence dims are left symbolic on
purpose (the importer must name them in one error).

Weights are seeded, so re-running the script gives the same graphs (the
bytes may differ with another torch version).
"""

import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    """Multi-head self-attention written as timm writes it."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, bias=None):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        if bias is not None:
            attn = attn + bias
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class Block(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = Attention(dim, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    """ViT: patch embedding, class token expanded to the batch, position
    embedding, pre-norm blocks, class-token head."""

    def __init__(self, image=32, patch=8, dim=32, depth=2, heads=2, classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        tokens = (image // patch) ** 2
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim) * 0.02)
        self.pos_embed = nn.Parameter(torch.randn(1, tokens + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, x):
        x = self.patch_embed(x).flatten(2).transpose(1, 2)
        cls = self.cls_token.expand(x.shape[0], -1, -1)
        x = torch.cat((cls, x), dim=1) + self.pos_embed
        x = self.norm(self.blocks(x))
        return self.head(x[:, 0])


def window_partition(x, ws):
    B, H, W, C = x.shape
    x = x.view(B, H // ws, ws, W // ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, ws, ws, C)


def window_reverse(windows, ws, H, W):
    C = windows.shape[-1]
    x = windows.view(-1, H // ws, W // ws, ws, ws, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, H, W, C)


class WindowAttention(nn.Module):
    """Window attention with a relative position bias table (Swin)."""

    def __init__(self, dim, ws, heads):
        super().__init__()
        self.ws, self.heads = ws, heads
        self.scale = (dim // heads) ** -0.5
        self.bias_table = nn.Parameter(torch.randn((2 * ws - 1) ** 2, heads) * 0.02)
        coords = torch.stack(torch.meshgrid(torch.arange(ws), torch.arange(ws), indexing="ij"))
        coords = coords.flatten(1)
        rel = (coords[:, :, None] - coords[:, None, :]).permute(1, 2, 0) + (ws - 1)
        self.register_buffer("bias_index", rel[:, :, 0] * (2 * ws - 1) + rel[:, :, 1])
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q * self.scale) @ k.transpose(-2, -1)
        bias = self.bias_table[self.bias_index.view(-1)].view(N, N, -1).permute(2, 0, 1)
        attn = attn + bias.unsqueeze(0)
        if mask is not None:
            nw = mask.shape[0]
            attn = attn.view(B_ // nw, nw, self.heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.heads, N, N)
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj(x)


class SwinBlock(nn.Module):
    """A Swin block as torchvision writes it: pad to whole windows, roll,
    and build the shifted-window attention mask at run time from the padded
    size (slice assignments into new_zeros)."""

    def __init__(self, dim, ws, heads, shift):
        super().__init__()
        self.ws, self.shift = ws, shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, ws, heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, dim * 2), nn.GELU(), nn.Linear(dim * 2, dim))

    def shifted_mask(self, x, pad_H, pad_W):
        ws, s = self.ws, self.shift
        mask = x.new_zeros((pad_H, pad_W))
        count = 0
        for h in ((0, -ws), (-ws, -s), (-s, None)):
            for w in ((0, -ws), (-ws, -s), (-s, None)):
                mask[h[0]:h[1], w[0]:w[1]] = count
                count += 1
        mask = mask.view(pad_H // ws, ws, pad_W // ws, ws).permute(0, 2, 1, 3)
        mask = mask.reshape(-1, ws * ws)
        mask = mask.unsqueeze(1) - mask.unsqueeze(2)
        return mask.masked_fill(mask != 0, -100.0).masked_fill(mask == 0, 0.0)

    def forward(self, x):
        B, H, W, C = x.shape
        ws = self.ws
        shortcut = x
        x = self.norm1(x)
        pad_r = (ws - W % ws) % ws
        pad_b = (ws - H % ws) % ws
        x = F.pad(x, (0, 0, 0, pad_r, 0, pad_b))
        _, pad_H, pad_W, _ = x.shape
        mask = None
        if self.shift:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
            mask = self.shifted_mask(x, pad_H, pad_W)
        win = window_partition(x, ws).view(-1, ws * ws, C)
        win = self.attn(win, mask).view(-1, ws, ws, C)
        x = window_reverse(win, ws, pad_H, pad_W)
        if self.shift:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x[:, :H, :W, :].contiguous()
        return x + self.mlp(self.norm2(x))


class PatchMerging(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.norm = nn.LayerNorm(4 * dim)
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)

    def forward(self, x):
        H, W = x.shape[-3:-1]
        x = F.pad(x, (0, 0, 0, W % 2, 0, H % 2))
        x = torch.cat([x[..., 0::2, 0::2, :], x[..., 1::2, 0::2, :], x[..., 0::2, 1::2, :],
                       x[..., 1::2, 1::2, :]], -1)
        return self.reduction(self.norm(x))


class TinySwin(nn.Module):
    """Swin: patch embedding to (B, H, W, C), two stages of (regular,
    shifted) window blocks with a patch merging between them (the second
    stage's 6x6 grid is padded to whole 4x4 windows), mean-pooled head."""

    def __init__(self, patch=4, dim=16, ws=4, heads=2, classes=10):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, dim, patch, patch)
        self.stage1 = nn.Sequential(SwinBlock(dim, ws, heads, 0), SwinBlock(dim, ws, heads, ws // 2))
        self.merge = PatchMerging(dim)
        self.stage2 = nn.Sequential(SwinBlock(2 * dim, ws, heads, 0),
                                    SwinBlock(2 * dim, ws, heads, ws // 2))
        self.norm = nn.LayerNorm(2 * dim)
        self.head = nn.Linear(2 * dim, classes)

    def forward(self, x):
        x = self.patch_embed(x).permute(0, 2, 3, 1)
        x = self.stage2(self.merge(self.stage1(x)))
        return self.head(self.norm(x).mean((1, 2)))


class TinyFpnSsd(nn.Module):
    """Detection: a three-level conv backbone, an FPN top-down path that
    upsamples to the lateral's size, SSD-style heads whose outputs are
    permuted and flattened per level and concatenated."""

    def __init__(self, anchors=3, classes=5, width=8):
        super().__init__()
        self.c1 = nn.Sequential(nn.Conv2d(3, width, 3, 2, 1), nn.ReLU())
        self.c2 = nn.Sequential(nn.Conv2d(width, 2 * width, 3, 2, 1), nn.ReLU())
        self.c3 = nn.Sequential(nn.Conv2d(2 * width, 4 * width, 3, 2, 1), nn.ReLU())
        self.lat = nn.ModuleList([nn.Conv2d(c, width, 1) for c in (width, 2 * width, 4 * width)])
        self.smooth = nn.ModuleList([nn.Conv2d(width, width, 3, 1, 1) for _ in range(3)])
        self.cls = nn.Conv2d(width, anchors * classes, 3, 1, 1)
        self.box = nn.Conv2d(width, anchors * 4, 3, 1, 1)
        self.classes = classes

    def forward(self, x):
        f1 = self.c1(x)
        f2 = self.c2(f1)
        f3 = self.c3(f2)
        p3 = self.lat[2](f3)
        p2 = self.lat[1](f2) + F.interpolate(p3, size=f2.shape[-2:], mode="nearest")
        p1 = self.lat[0](f1) + F.interpolate(p2, size=f1.shape[-2:], mode="nearest")
        scores, boxes = [], []
        for p, smooth in zip((p1, p2, p3), self.smooth):
            p = smooth(p)
            N = p.shape[0]
            scores.append(self.cls(p).permute(0, 2, 3, 1).reshape(N, -1, self.classes))
            boxes.append(self.box(p).permute(0, 2, 3, 1).reshape(N, -1, 4))
        return torch.cat(scores, 1).softmax(-1), torch.cat(boxes, 1), self.anchors(x, (p1, p2, p3))

    def anchors(self, image, features):
        """Anchor centres per level from the feature and image sizes, as
        torchvision's AnchorGenerator computes them (arange * stride)."""
        out = []
        for f in features:
            h, w = f.shape[-2:]
            sy, sx = image.shape[-2] // h, image.shape[-1] // w
            ys = torch.arange(0, h, dtype=torch.int32) * sy
            xs = torch.arange(0, w, dtype=torch.int32) * sx
            gy, gx = torch.meshgrid(ys, xs, indexing="ij")
            out.append(torch.stack((gx.reshape(-1), gy.reshape(-1)), 1).repeat(1, 2))
        return torch.cat(out, 0).float()


class TinyUNet(nn.Module):
    """Segmentation: a two-level UNet (skip connections concatenated after a
    bilinear upsample to the skip's size) and an FCN-style final upsample of
    the logits to the input's size."""

    def __init__(self, width=8, classes=4):
        super().__init__()

        def conv(i, o):
            return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1), nn.BatchNorm2d(o), nn.ReLU())

        self.d1 = conv(3, width)
        self.d2 = conv(width, 2 * width)
        self.d3 = conv(2 * width, 4 * width)
        self.u2 = conv(6 * width, 2 * width)
        self.u1 = conv(3 * width, width)
        self.out = nn.Conv2d(width, classes, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        c = self.d3(F.max_pool2d(b, 2))
        up = F.interpolate(c, size=b.shape[2:], mode="bilinear", align_corners=False)
        b = self.u2(torch.cat([up, b], 1))
        up = F.interpolate(b, scale_factor=2.0, mode="bilinear", align_corners=False)
        a = self.u1(torch.cat([up, a], 1))
        logits = self.out(F.max_pool2d(a, 2))
        return F.interpolate(logits, size=x.shape[-2:], mode="bilinear", align_corners=False)


class TinyGpt(nn.Module):
    """Decoder: token and position embeddings (positions from arange of the
    sequence length), a causal mask sliced from a buffer by the length."""

    def __init__(self, vocab=64, ctx=16, dim=32, heads=2, depth=2):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.register_buffer("causal", torch.tril(torch.ones(ctx, ctx)).view(1, 1, ctx, ctx))
        self.heads = heads
        self.qkv = nn.ModuleList([nn.Linear(dim, 3 * dim) for _ in range(depth)])
        self.proj = nn.ModuleList([nn.Linear(dim, dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, vocab, bias=False)

    def forward(self, ids):
        B, T = ids.size()
        pos = torch.arange(0, T, dtype=torch.long).unsqueeze(0).expand(B, -1)
        x = self.tok(ids) + self.pos(pos)
        for qkv, proj in zip(self.qkv, self.proj):
            C = x.size(-1)
            q, k, v = qkv(x).split(C, dim=2)
            q = q.view(B, T, self.heads, C // self.heads).transpose(1, 2)
            k = k.view(B, T, self.heads, C // self.heads).transpose(1, 2)
            v = v.view(B, T, self.heads, C // self.heads).transpose(1, 2)
            att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
            att = att.masked_fill(self.causal[:, :, :T, :T] == 0, float("-inf")).softmax(-1)
            y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
            x = x + proj(y)
        return self.head(self.norm(x))


def export(model, args, path, opset, names, dynamic_axes=None, fold=True):
    """fold=False keeps every shape computation torch would fold itself (as
    exports for training do): the importer must fold them."""
    model.eval()
    torch.onnx.export(model, args, path, opset_version=opset, input_names=names,
                      dynamic_axes=dynamic_axes, do_constant_folding=fold)
    print(f"{path}: {os.path.getsize(path)} bytes (opset {opset})")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    torch.manual_seed(0)
    export(TinyViT(), torch.randn(2, 3, 32, 32), os.path.join(out, "vit_tiny.onnx"), 13, ["x"])
    export(TinySwin(), torch.randn(1, 3, 48, 48), os.path.join(out, "swin_tiny.onnx"), 14, ["x"])
    export(TinyFpnSsd(), torch.randn(1, 3, 64, 64), os.path.join(out, "fpn_ssd_tiny.onnx"), 16,
           ["x"], fold=False)
    export(TinyUNet(), torch.randn(1, 3, 32, 32), os.path.join(out, "unet_tiny.onnx"), 17, ["x"],
           fold=False)
    ids = torch.randint(0, 64, (2, 16))
    export(TinyGpt(), ids, os.path.join(out, "gpt_tiny.onnx"), 15, ["ids"])
    # The same decoder with its batch and sequence dims left symbolic: the
    # importer's error must name both input dims at once.
    export(TinyGpt(), ids, os.path.join(out, "symbolic_inputs.onnx"), 15, ["ids"],
           dynamic_axes={"ids": {0: "batch", 1: "seq"}})


if __name__ == "__main__":
    main()
