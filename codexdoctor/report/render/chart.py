"""A small terminal scatter chart, so the probe's latency curve reads in any terminal or ticket.

In Chinese output it is drawn in ASCII: box-drawing lines and `●` are East Asian ambiguous characters, two cells on
the CJK terminals a Chinese reader uses, so a Unicode chart there was twice as wide as laid out and its points off
their columns (issue 40)."""

from __future__ import annotations

from codexdoctor.common.cells import cells as count_cells


def scatter(
    points: tuple[tuple[float, float], ...],
    x_label: str,
    y_label: str,
    width: int = 56,
    height: int = 10,
    ascii_only: bool = False,
    lang: str = "en",
) -> list[str]:
    if not points:
        return []
    ascii_only = ascii_only or lang == "zh"
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    x0, x1 = min(0.0, min(xs)), max(xs) or 1.0
    y0, y1 = min(0.0, min(ys)), max(ys) or 1.0
    grid = [[" "] * width for _ in range(height)]
    mark = "*" if ascii_only else "●"
    for x, y in points:
        col = min(width - 1, int((x - x0) / ((x1 - x0) or 1) * (width - 1)))
        row = min(height - 1, int((y - y0) / ((y1 - y0) or 1) * (height - 1)))
        grid[height - 1 - row][col] = mark
    bar, corner, dash = ("|", "+", "-") if ascii_only else ("│", "└", "─")
    label_w = max(len(f"{y1:,.0f}"), len(f"{y0:,.0f}"))
    lines = [f"{y_label}"]
    for i, cells in enumerate(grid):
        label = f"{y1:,.0f}" if i == 0 else f"{y0:,.0f}" if i == height - 1 else ""
        lines.append(f"{label:>{label_w}} {bar}{''.join(cells)}")
    lines.append(" " * label_w + " " + corner + dash * width)
    left, right = f"{x0:,.0f}", f"{x1:,.0f}"
    lines.append(" " * (label_w + 2) + left + " " * max(1, width - len(left) - len(right)) + right)
    wider = count_cells(x_label, lang) - len(x_label)  # centred by cells: a Chinese label is wider than its length
    lines.append(" " * (label_w + 2) + x_label.center(width - wider))
    return lines
