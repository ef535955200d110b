"""PNG plots: runs/<benchmark>/claimable.png (linked from REPORT.md) and scores.png (linked
from SCORES.md). Same numbers, same bytes: the Agg backend, matplotlib's default style
whatever the user's matplotlibrc says, a fixed size and dpi, the DejaVu Sans that ships
with matplotlib for every text, and no metadata but the key of what was drawn.

matplotlib is imported only to draw. Each PNG carries, as a text chunk, a blake3 key of its
numbers, this module's version and matplotlib's; a PNG already on disk with the same key is
reused as it is, so rendering a report whose numbers did not change never imports matplotlib.
"""

from __future__ import annotations

import functools
import io
import json
import struct
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from determinacy.store import digest

PLOT_VERSION = "2"  # bump when the drawing changes: a PNG of another version is redrawn
KEY_CHUNK = "determinacy"  # the PNG text chunk holding the key
DPI = 100
WIDTH = 8.0  # inches
MAX_ROWS = 30  # repositories or models shown; the title says how many more there are
COLORS = ("#1f4e79", "#c55a11", "#548235", "#7030a0", "#bf9000", "#2e75b6")

_MEMO: dict[str, bytes] = {}


@functools.cache
def _matplotlib_version() -> str:
    try:
        return version("matplotlib")
    except PackageNotFoundError:  # pragma: no cover - a dependency of the package
        return "?"


def plot_key(kind: str, data: Any) -> str:
    return digest(json.dumps([kind, PLOT_VERSION, _matplotlib_version(), data],
                             sort_keys=True, default=str).encode("utf-8"))


def png_text(data: bytes) -> dict[str, str]:
    """The tEXt chunks of a PNG (empty when it is not one)."""
    out: dict[str, str] = {}
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        return out
    i = 8
    while i + 8 <= len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + length]
        if kind == b"tEXt" and b"\0" in body:
            k, _, v = body.partition(b"\0")
            out[k.decode("latin-1")] = v.decode("latin-1")
        if kind == b"IEND":
            break
        i += 12 + length
    return out


def _cached(kind: str, data: Any, draw: Callable[[Any, str], bytes],
            reuse: Path | None) -> bytes:
    key = plot_key(kind, data)
    if key in _MEMO:
        return _MEMO[key]
    png = b""
    if reuse is not None:
        try:
            old = reuse.read_bytes()
            if png_text(old).get(KEY_CHUNK) == key:
                png = old
        except OSError:
            pass
    if not png:
        png = draw(data, key)
    if len(_MEMO) >= 64:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = png
    return png


# matplotlib's defaults (whatever the user's matplotlibrc says) with these on top.
RC = {"svg.hashsalt": "determinacy", "path.simplify": True, "font.family": "DejaVu Sans",
      "axes.grid": True, "grid.alpha": 0.3, "axes.axisbelow": True}


def _matplotlib() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.style

    return matplotlib


def _figure(rows: int) -> tuple[Any, Any]:
    """A figure for `rows` horizontal rows."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH, 2.0 + 0.32 * max(rows, 1)), dpi=DPI)
    return fig, fig.subplots()


def _save(matplotlib: Any, fig: Any, key: str) -> bytes:
    from matplotlib.font_manager import FontProperties
    from matplotlib.text import Text

    # The bundled font, never a system font of the same name that findfont may prefer.
    font = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    for text in fig.findobj(Text):
        text.set_fontproperties(FontProperties(fname=font, size=text.get_fontsize()))
    _margins(fig, FontProperties(fname=font, size=matplotlib.rcParams["ytick.labelsize"]))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None, KEY_CHUNK: key})
    return buf.getvalue()


def _margins(fig: Any, tick_font: Any) -> None:
    """Room for the row labels at the left, the title at the top, the x label and the
    figure's legend at the bottom: measured from the texts (what tight_layout would find,
    without laying the figure out a second time)."""
    from matplotlib.textpath import TextToPath

    ax = fig.axes[0]
    width, height = fig.get_figwidth(), fig.get_figheight()
    measure = TextToPath()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    widest = max((measure.get_text_width_height_descent(t, tick_font, ismath=False)[0]
                  for t in labels if t), default=0.0) / 72
    title_lines = ax.get_title().count("\n") + 1
    fig.subplots_adjust(left=min(0.6, (widest + 0.25) / width), right=1 - 0.25 / width,
                        top=1 - (0.12 + 0.2 * title_lines) / height,
                        bottom=(0.6 + (0.35 if fig.legends else 0)) / height)


def _legend(ax: Any, entries: int) -> None:
    """Below the plot, never over a point."""
    ax.figure.legend(*ax.get_legend_handles_labels(), loc="lower center",
                     ncol=min(entries, 4), fontsize=8, frameon=False)


def _gap(a: float, b: float) -> float:
    """a - b in percent points (the Wilson macros keep each end on its side of the rate)."""
    return 100 * (a - b)


def _label(name: str) -> str:
    """A name from data as one line of plain text: its controls shown (as in the Markdown),
    and `$` kept from starting matplotlib's math mode."""
    from determinacy.reports.markdown import visible

    return visible(name.replace("\r", "\\r").replace("\n", "\\n")).replace("$", "\\$")


def _rows_label(shown: int, total: int, what: str) -> str:
    return "" if shown == total else f"\n({shown} of {total} {what})"


def claimable_png(rows: list[dict[str, Any]], reuse: Path | None = None) -> bytes:
    """Per repository: the claimable rate (a floor) and each pass's screen GAP rate (an upper
    bound), each with its Wilson 95% interval. `rows`: queries/report_plot.sql."""
    return _cached("claimable", rows, _draw_claimable, reuse)


def _draw_claimable(rows: list[dict[str, Any]], key: str) -> bytes:
    repos = list(dict.fromkeys(r["repository"] for r in rows))
    series = list(dict.fromkeys(r["series"] for r in rows))
    audited = {r["repository"]: r["n"] for r in rows if r["series"].startswith("claimable")}
    # The largest repositories when there are too many to show, in name order.
    shown = sorted(sorted(repos, key=lambda r: (-audited.get(r, 0), r))[:MAX_ROWS])
    matplotlib = _matplotlib()
    with matplotlib.style.context("default"), matplotlib.rc_context(RC):
        fig, ax = _figure(len(shown) * max(len(series), 1))
        step = 0.8 / max(len(series), 1)
        for j, name in enumerate(series):
            mine = [r for r in rows if r["series"] == name and r["repository"] in shown]
            ys = [shown.index(r["repository"]) + (j - (len(series) - 1) / 2) * step
                  for r in mine]
            xs = [100 * r["rate"] for r in mine]
            err = [[_gap(r["rate"], r["wilson_95"][0]) for r in mine],
                   [_gap(r["wilson_95"][1], r["rate"]) for r in mine]]
            ax.errorbar(xs, ys, xerr=err, fmt="o", capsize=3, color=COLORS[j % len(COLORS)],
                        label=name)
        ax.set_yticks(range(len(shown)), [f"{_label(r)} (n={audited.get(r, 0)})" for r in shown])
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel("% of audited cases (Wilson 95% interval)")
        ax.set_title("Claimable floor and screen GAP rate (upper bound) per repository"
                     + _rows_label(len(shown), len(repos), "repositories, the largest"),
                     fontsize=10)
        if not any(s.startswith("GAP") for s in series):
            ax.text(0.99, 0.02, "no agent: the coverage screen did not run",
                    transform=ax.transAxes, ha="right", va="bottom", fontsize=8)
        if rows:
            _legend(ax, len(series))
        else:
            ax.text(0.5, 0.5, "no audited case", transform=ax.transAxes, ha="center")
        return _save(matplotlib, fig, key)


def scores_png(s: Any, reuse: Path | None = None) -> bytes:
    """Each model's score (a dot), its Wilson 95% interval (whiskers), its sensitivity
    interval (a thick bar) and the wider hypothesis band (a light bar). `s`: a ScoreSet."""
    data = [{"model": m.model, "score": m.score, "wilson": [m.wilson_low, m.wilson_high],
             "sensitivity": [m.sensitivity_low, m.sensitivity_high],
             "band": [m.band_low, m.band_high], "determinate": m.determinate_score,
             "attempted": m.attempted} for m in s.models]
    # The denominator the policy gives (determinacy/score/policy.py).
    axis = {("fail", "fail"): "% of tasks resolved (missing or errored: unresolved)",
            ("exclude", "exclude"): "% of attempted tasks resolved (missing, errors left out)"
            }.get((s.errors_policy, s.missing_policy),
                  f"% resolved (--missing {s.missing_policy} --errors {s.errors_policy})")
    return _cached("scores", {"benchmark": s.benchmark, "models": data, "axis": axis,
                              "revision": s.validity_revision}, _draw_scores, reuse)


def _draw_scores(data: dict[str, Any], key: str) -> bytes:
    models = [m for m in data["models"] if m["score"] is not None]
    shown = models[:MAX_ROWS]
    matplotlib = _matplotlib()
    with matplotlib.style.context("default"), matplotlib.rc_context(RC):
        fig, ax = _figure(len(shown))
        for i, m in enumerate(shown):
            label = i == 0
            lo, hi = m["band"]
            ax.plot([100 * lo, 100 * hi], [i, i], color="#bdd7ee", linewidth=9,
                    solid_capstyle="butt", label="hypothesis band (readings)" if label else None)
            lo, hi = m["sensitivity"]
            ax.plot([100 * lo, 100 * hi], [i, i], color="#2e75b6", linewidth=4,
                    solid_capstyle="butt", label="sensitivity interval" if label else None)
            lo, hi = m["wilson"]
            ax.errorbar([100 * m["score"]], [i], xerr=[[_gap(m["score"], lo)],
                                                       [_gap(hi, m["score"])]],
                        fmt="o", color="#000000", capsize=4, markersize=5,
                        label="score, Wilson 95%" if label else None)
            if m["determinate"] is not None:
                ax.plot([100 * m["determinate"]], [i], marker="D", linestyle="none",
                        color="#c55a11", markersize=5,
                        label="determinate subset" if label else None)
        ax.set_yticks(range(len(shown)), [f"{_label(m['model'])} (n={m['attempted']})"
                                          for m in shown])
        ax.invert_yaxis()
        ax.set_xlim(0, 100)
        ax.set_xlabel(data["axis"])
        ax.set_title(f"Scores on {data['benchmark']}, validity revision {data['revision']}"
                     + _rows_label(len(shown), len(models), "models, the best ranked"),
                     fontsize=10)
        if shown:
            _legend(ax, 4)
        else:
            ax.text(0.5, 0.5, "no model has a score", transform=ax.transAxes, ha="center")
        return _save(matplotlib, fig, key)
