"""Ways to look at a Plan: live bytes over time as a numpy array, a
matplotlib figure (live bytes and the memory map) and an HTML summary for
Jupyter."""

from __future__ import annotations

import html
from typing import Any, Optional

__all__ = ["live_bytes", "plot", "summary_html"]


def live_bytes(plan: Any, space: int = 0, pool: Optional[str] = None) -> Any:
    """A numpy int64 array of ``plan.time_steps`` entries: at each logical
    time step, the bytes of the buffers placed in ``space`` (0 default, 1
    alternate memory) then, counting a buffer over each allocation's
    ``[start, end]``; only buffers of ``pool`` when given (``"transient"``:
    its maximum is ``plan.lower_bound``)."""
    import numpy as np

    delta = np.zeros(plan.time_steps + 1, dtype=np.int64)
    for b in plan.buffers:
        if pool is not None and b.pool != pool:
            continue
        for a in b.allocations:
            if a.space == space:
                delta[a.start] += b.size
                delta[a.end + 1] -= b.size
    return np.cumsum(delta[:-1])


def plot(plan: Any, space: int = 0, pool: Optional[str] = "transient") -> Any:
    """A matplotlib Figure with two axes: the live bytes of ``pool`` (all
    pools for None) over time with the plan's peak, and the memory map —
    one rectangle per allocation in ``space``, time steps across, byte
    offsets up. Needs matplotlib."""
    import matplotlib.figure
    import matplotlib.patches

    fig = matplotlib.figure.Figure(figsize=(9, 6))
    live_ax, map_ax = fig.subplots(2, 1, sharex=True)
    live = live_bytes(plan, space, pool)
    where = {0: "default memory", 1: "alternate (fast) memory"}.get(space, f"memory space {space}")
    what = f"{pool} pool" if pool is not None else "all pools"
    live_ax.step(range(len(live)), live, where="post", label=f"live bytes ({what})")
    if space == 0 and pool == "transient":
        # The plan's peak is the default memory's transient extent.
        live_ax.axhline(plan.peak, color="red", linestyle="--", label=f"extent {plan.peak} B")
    live_ax.set_ylabel("bytes")
    live_ax.legend(loc="upper right")
    live_ax.set_title(f"{plan.input}: {where}, {what}; packed by {plan.algorithm}")
    top = 0
    for b in plan.buffers:
        if pool is not None and b.pool != pool:
            continue
        for a in b.allocations:
            if a.space != space or b.size == 0:
                continue
            map_ax.add_patch(matplotlib.patches.Rectangle(
                (a.start, a.offset), a.end - a.start + 1, b.size, edgecolor="black",
                linewidth=0.3, alpha=0.7))
            top = max(top, a.offset + b.size)
    map_ax.set_xlim(0, max(plan.time_steps, 1))
    map_ax.set_ylim(0, max(top, 1))
    map_ax.set_xlabel("time step")
    map_ax.set_ylabel("offset (bytes)")
    return fig


def summary_html(plan: Any) -> str:
    """An HTML table of the plan's figures and pools, for Jupyter."""
    rows = [("input", plan.input), ("algorithm", plan.algorithm),
            ("peak", f"{plan.peak:,} bytes"), ("lower bound", f"{plan.lower_bound:,} bytes"),
            ("buffers", f"{len(plan.buffers):,}"), ("time steps", f"{plan.time_steps:,}")]
    rows += [(f"pool {p.name} (space {p.space})", f"{p.size:,} bytes at {p.offset:,}")
             for p in plan.pools]
    body = "".join(f"<tr><th style='text-align:left'>{html.escape(str(k))}</th>"
                   f"<td>{html.escape(str(v))}</td></tr>" for k, v in rows)
    return f"<table><caption>memplan.Plan</caption>{body}</table>"
