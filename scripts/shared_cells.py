# ruff: noqa: E402
# The cells every chapter carries word for word, in this order, each tagged
# `shared`, at the top of its Setup section (a chapter must run alone on
# Colab, so it cannot import them). tests/test_shared.py checks every chapter
# against this file, so a fix made here and copied reaches every chapter.

# %%
# Output ignored by the tests: it names this machine's torch and device.
import sys

import ipywidgets as widgets
import matplotlib.pyplot as plt
import torch
from matplotlib.text import Text

if "google.colab" in sys.modules:  # Colab needs this for ipywidgets 8
    from google.colab import output

    output.enable_custom_widget_manager()
device = torch.device("cuda" if torch.cuda.is_available()
                      else "mps" if torch.backends.mps.is_available()
                      else "cpu")
torch.backends.cuda.matmul.allow_tf32 = False  # keep float32 products exact
torch.backends.cudnn.allow_tf32 = False
print(f"torch {torch.__version__} on {device}")


# %%
def rounding(x: float) -> str:
    """Print a rounding-level error the book's one way (see How to use)."""
    if not 0 <= x < 1e-4:
        raise ValueError(f"a rounding-level error lies in [0, 1e-4), got {x}")
    return f"{abs(x):.1e} (rounding)"


# %%
import io

FRAME_DPI, FRAME_MAX_PX, FRAME_MIN_TEXT_PX = 100, 480, 15


def figure_png(fig: plt.Figure) -> bytes:
    """Render a slider frame at the size it is shown, then close it."""
    width = fig.get_figwidth() * FRAME_DPI
    text = min((t.get_fontsize() * FRAME_DPI / 72 for t in fig.findobj(Text)
                if t.get_visible() and t.get_text()), default=99)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=FRAME_DPI)
    plt.close(fig)
    if width > FRAME_MAX_PX or text < FRAME_MIN_TEXT_PX:
        raise ValueError(f"a frame is at most {FRAME_MAX_PX} px wide with text"
                         f" of at least {FRAME_MIN_TEXT_PX} px; got"
                         f" {width:.0f} px and {text:.1f} px")
    return buffer.getvalue()


# %%
def frame_view(frames: list[bytes],
               slider: widgets.SelectionSlider) -> widgets.Widget:
    """The frames, switched by the slider in the browser where possible."""
    images = [widgets.Image(value=frame, layout={"max_width": "100%"})
              for frame in frames]
    if hasattr(widgets, "Stack"):  # ipywidgets 8: the browser switches frames
        view = widgets.Stack(images, selected_index=0)
        widgets.jslink((slider, "index"), (view, "selected_index"))
        return view
    # ipywidgets 7 (older Colab) has no Stack: the kernel swaps the picture
    slider.observe(lambda c: setattr(images[0], "value", frames[c["new"]]),
                   names="index")
    return images[0]


# %%
def site_slider(frames: list[bytes], labels: list[str],
                description: str) -> widgets.VBox:
    """A slider over PNG frames that the browser switches with no kernel."""
    if not frames or len(frames) != len(labels):
        raise ValueError(f"need one label per frame, got {len(frames)} frames"
                         f" and {len(labels)} labels")
    fit = {"width": "100%", "max_width": f"{FRAME_MAX_PX}px"}
    slider = widgets.SelectionSlider(options=labels, description=description,
                                     style={"description_width": "initial"},
                                     layout=fit)
    return widgets.VBox([slider, frame_view(frames, slider)], layout=fit,
                        _dom_classes=["site-interactive"])


# %%
from collections.abc import Callable


def check(test: Callable[..., str | None], *answers: object) -> None:
    """Say whether exercise answers pass `test`, without showing a solution."""
    if any(answer is None for answer in answers):
        print("not answered yet: replace each None with your answer")
        return
    try:
        problem = test(*answers)
    except Exception as error:  # an answer of the wrong type or shape
        problem = f"{type(error).__name__}: {error}"
    print("correct" if problem is None else f"not yet: {problem}")
