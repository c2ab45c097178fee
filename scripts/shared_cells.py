# ruff: noqa: E402
# The cells every chapter carries word for word, in this order, each tagged
# `shared`, at the top of its Setup section (a chapter must run alone on
# Colab, so it cannot import them). A cell headed `# %% chapters 3 4` goes
# to those chapters only. tests/test_shared.py checks every chapter against
# this file; `python scripts/sync_shared_cells.py NOTEBOOK...` (run by
# `make execute`) copies a fix made here into the chapters.

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
    """A rounding-level error as the book prints it (How to use this book)."""
    if not 0 <= x < 1e-4:
        raise ValueError(f"a rounding-level error lies in [0, 1e-4), got {x}")
    return f"{abs(x):.1e} (rounding)"


def signed(x: float, places: int = 2) -> str:
    """x with its sign; none if it rounds to zero (How to use this book)."""
    text = f"{x:+.{places}f}"
    return " " + text[1:] if float(text) == 0 else text


# %%
import io

from PIL import Image


def palette_png(buffer: io.BytesIO, colours: int = 64) -> bytes:
    """The PNG in buffer with a palette of a few colours: fewer bytes."""
    buffer.seek(0)
    image = Image.open(buffer).convert("RGB").quantize(colours)
    smaller = io.BytesIO()
    image.save(smaller, format="png", optimize=True)
    return smaller.getvalue()


# %%
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
    return palette_png(buffer)


# %%
import base64
import html
import warnings

from IPython.display import display

# ipywidgets 7 (Colab's) makes its comms in a way ipykernel 6.18+ deprecates
warnings.filterwarnings("ignore", ".*ipykernel.comm.Comm", DeprecationWarning)
# A figure is shown 100 CSS px to the inch, stored at twice that (sharp on
# a 2x screen); its smallest text must stay readable in a 358-px phone column.
CSS_PPI, PHONE_COLUMN_PX, MIN_TEXT_PX, MIN_TEXT_PT = 100, 358, 9, 8


# %%
def retina_png(fig: plt.Figure) -> tuple[bytes, int, float]:
    """A figure's PNG at 2x, CSS width and smallest text (pt); closes it."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=2 * CSS_PPI, bbox_inches="tight")
    text_pt = min((t.get_fontsize() for t in fig.findobj(Text)
                   if t.get_visible() and t.get_text().strip()), default=99)
    plt.close(fig)
    png = palette_png(buffer, colours=128)
    return png, Image.open(io.BytesIO(png)).width // 2, text_pt


# %%
def show(fig: plt.Figure, alt: str) -> None:
    """Display a figure with alt text saying what it shows, then close it."""
    if len(alt.split()) < 6:
        raise ValueError("alt text says what the figure shows, in 6 words or"
                         f" more; got {alt!r}")
    png, width, text_pt = retina_png(fig)
    on_phone = text_pt * CSS_PPI / 72 * min(1, PHONE_COLUMN_PX / width)
    if text_pt < MIN_TEXT_PT or on_phone < MIN_TEXT_PX:
        raise ValueError(f"text of at least {MIN_TEXT_PT} pt, and"
                         f" {MIN_TEXT_PX} px in a {PHONE_COLUMN_PX}-px"
                         f" column; got {text_pt} pt and {on_phone:.1f}"
                         " px: narrower or larger text")
    meta = {"alt": alt, "width": width, "text_pt": text_pt}
    display({"image/png": base64.b64encode(png).decode()}, raw=True,
            metadata={"image/png": meta})


# %%
def frame_view(frames: list[bytes], alts: list[str],
               slider: widgets.SelectionSlider) -> widgets.Widget:
    """The frames, switched by the slider in the browser where possible."""
    pages = [f'<img alt="{html.escape(alt)}" style="max-width:100%" src="data:'
             f'image/png;base64,{base64.b64encode(frame).decode()}">'
             for frame, alt in zip(frames, alts, strict=True)]
    if hasattr(widgets, "Stack"):  # ipywidgets 8: the browser switches frames
        view = widgets.Stack([widgets.HTML(page) for page in pages],
                             selected_index=0)
        widgets.jslink((slider, "index"), (view, "selected_index"))
        return view
    # ipywidgets 7 (older Colab) has no Stack: the kernel swaps the picture
    view = widgets.HTML(pages[0])
    slider.observe(lambda c: setattr(view, "value", pages[c["new"]]), "index")
    return view


# %%
def site_slider(frames: list[bytes], labels: list[str], description: str,
                alts: list[str]) -> widgets.VBox:
    """A slider over PNG frames that the browser switches with no kernel."""
    if not frames or not len(frames) == len(labels) == len(alts):
        raise ValueError(f"need one label and one alt text per frame, got"
                         f" {len(frames)} frames, {len(labels)} labels and"
                         f" {len(alts)} alt texts")
    fit = {"width": "100%", "max_width": f"{FRAME_MAX_PX}px"}
    slider = widgets.SelectionSlider(options=labels, description=description,
                                     style={"description_width": "initial"},
                                     layout=fit)
    return widgets.VBox([slider, frame_view(frames, alts, slider)],
                        layout=fit, _dom_classes=["site-interactive"])


# %%
class AnswerTypeError(TypeError):
    """An answer of the wrong kind; check() says what was expected instead."""


def as_flag(name: str, value: object) -> bool:
    """An answer that must be True or False (not a string or a number)."""
    if isinstance(value, torch.Tensor) and value.shape == ():
        value = value.item()  # a 0-dim tensor: the Python value inside
    if type(value).__name__ not in ("bool", "bool_"):
        raise AnswerTypeError(f"{name} should be True or False, got {value!r}")
    return bool(value)


# %%
def as_number(name: str, value: object, shape: tuple = ()) -> torch.Tensor:
    """An answer as float64: a number, or a tensor, array or list of them."""
    value = value.detach() if isinstance(value, torch.Tensor) else value
    try:  # a string, a bool or a complex is no number here (Python casts it)
        number = None if isinstance(value, str | bool) or torch.as_tensor(
            value).is_complex() else torch.as_tensor(
                value, dtype=torch.float64).cpu()
    except (TypeError, ValueError, RuntimeError):
        number = None
    if (number is None or tuple(number.shape) != tuple(shape)
            or not number.isfinite().all()):  # nan passes no test: refuse it
        what = f"finite numbers, shape {tuple(shape)}" if shape else "a number"
        raise AnswerTypeError(f"{name} should be {what} (not nan or inf),"
                              f" got {value!r:.60}")
    return number


# %%
import builtins
import types
from collections.abc import Callable

_SETUP: dict = {"torch": torch, "types": types, "builtins": builtins,
                "AnswerTypeError": AnswerTypeError, "__builtins__": builtins}
_SETUP["_SETUP"] = _SETUP  # all that the checking functions read


def _own(f: Callable) -> Callable:
    """f reading only _SETUP, never a name an answer rebinds; kept there."""
    g = types.FunctionType(f.__code__, _SETUP, f.__name__, f.__defaults__,
                           f.__closure__)
    g.__kwdefaults__, _SETUP[f.__name__] = f.__kwdefaults__, g
    return g


as_flag, as_number = _own(as_flag), _own(as_number)


# %%
@_own
def _with_helpers(test: Callable) -> Callable:
    """test, reading the helpers above and the built-ins, not an answer's
    namesakes (a test reads no other name of the chapter)."""
    if isinstance(test, types.FunctionType):
        names = {k: v for k, v in test.__globals__.items()
                 if not hasattr(builtins, k)} | _SETUP
        test, kwdefaults = types.FunctionType(
            test.__code__, names, test.__name__, test.__defaults__,
            test.__closure__), test.__kwdefaults__
        test.__kwdefaults__ = kwdefaults
    return test


# %%
@_own
def check(test: Callable[..., str | None], *answers: object) -> None:
    """Say whether exercise answers pass `test`, without showing a solution."""
    if any(answer is None for answer in answers):
        print("not answered yet: replace each None with your answer")
        return
    try:
        problem = _with_helpers(test)(*answers)
    except AnswerTypeError as error:  # an answer of the wrong kind
        problem = str(error)
    except Exception as error:  # an answer that makes the test itself fail
        problem = f"{type(error).__name__}: {error}"
    print("correct" if problem is None else f"not yet: {problem}")


# %% chapters 3 4
import contextlib
import threading
from urllib.request import Request, urlopen

INDEX = "https://pypi.org/simple/"  # where pip looks on Colab


def index_answers(wait: float) -> bool:
    """Whether the package index answers within `wait` seconds."""
    online = threading.Event()

    def probe() -> None:
        with contextlib.suppress(OSError):
            urlopen(Request(INDEX, method="HEAD"), timeout=wait).close()
            online.set()

    threading.Thread(target=probe, daemon=True).start()
    return online.wait(wait)


# %% chapters 3 4
import importlib.util
import subprocess


def install(requirement: str, module: str, wait: float = 5) -> bool:
    """pip-install a package this chapter lacks; give up fast when offline."""
    if importlib.util.find_spec(module) is None and index_answers(wait):
        subprocess.run([sys.executable, "-m", "pip", "install", "-q",
                        "--no-deps", requirement], check=False)  # just it
        importlib.invalidate_caches()
    found = importlib.util.find_spec(module) is not None
    if not found:
        print(f"{requirement} is not installed and could not be installed"
              f" from {INDEX} (no answer within {wait} s, or no network):"
              " the cells that need it are skipped.")
    return found
