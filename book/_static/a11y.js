// Pages know whether JavaScript runs: a cell tagged `no-js-fallback` (a static figure standing in
// for an explorable) shows only where it does not (book.css).
document.documentElement.classList.add("js");

// Screen readers and the website's sliders. The widget manager draws each slider's handle as an
// element with role="slider" but no name, and announces its position as a frame number. Once a
// slider is drawn (the widgets render after the page loads), its handle is named by the slider's
// visible label and its value announced as the label the slider shows ("30°", "width 512").
(() => {
  const describe = (slider) => {
    const handle = slider.querySelector(".noUi-handle");
    if (!handle) return;
    const label = slider.querySelector(".widget-label");
    const readout = slider.querySelector(".widget-readout");
    const name = label && label.textContent.trim();
    if (name && handle.getAttribute("aria-label") !== name) handle.setAttribute("aria-label", name);
    const value = readout && readout.textContent.trim();
    if (value && handle.getAttribute("aria-valuetext") !== value) {
      handle.setAttribute("aria-valuetext", value);
    }
  };
  const update = () => document.querySelectorAll(".widget-slider").forEach(describe);
  new MutationObserver(update).observe(document.documentElement, {
    childList: true, subtree: true, characterData: true,
  });
  window.addEventListener("load", update);
})();

// Alt text of figures inside saved widgets. A chapter's `show(fig, alt)` stores the alt text in
// the output's metadata; the widget manager draws an Output widget's images from the saved state
// without it. Each such image gets the alt text its output carries in that state.
const labelWidgetImages = () => {
  const alts = new Map();
  document.querySelectorAll('script[type="application/vnd.jupyter.widget-state+json"]')
    .forEach((script) => {
      const models = JSON.parse(script.textContent).state || {};
      Object.values(models).forEach((model) => {
        (model.state && model.state.outputs || []).forEach((out) => {
          const png = out.data && out.data["image/png"];
          const alt = out.metadata && out.metadata["image/png"] && out.metadata["image/png"].alt;
          if (png && alt) alts.set(png.replace(/\s/g, ""), alt);
        });
      });
    });
  if (!alts.size) return;
  const label = () => document.querySelectorAll('img[src^="data:image/png;base64,"]')
    .forEach((img) => {
      if (img.getAttribute("alt")) return;  // none, or empty: the renderer's default
      const alt = alts.get(img.getAttribute("src").slice("data:image/png;base64,".length));
      if (alt) img.setAttribute("alt", alt);
    });
  label();
  new MutationObserver(label).observe(document.documentElement, { childList: true, subtree: true });
  window.addEventListener("load", label);
};
if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", labelWidgetImages);
} else {
  labelWidgetImages();
}

// Display maths, and text printed inside a saved widget, wider than a phone scroll sideways
// inside their box; a keyboard reader scrolls them too once they can take the focus (the theme
// does this for code cells). Only the boxes that overflow become focusable, and the set is
// updated when the width changes or a widget draws.
const WIDE = 'mjx-container[display="true"], .jp-OutputArea-output pre';
const focusableWideMaths = () => {
  document.querySelectorAll(WIDE).forEach((box) => {
    if (box.scrollWidth > box.clientWidth + 1) {
      box.setAttribute("tabindex", "0");
    } else if (box.getAttribute("tabindex") === "0") {
      box.removeAttribute("tabindex");
    }
  });
};
new MutationObserver(focusableWideMaths)
  .observe(document.documentElement, { childList: true, subtree: true });
const afterMaths = (tries) => {  // MathJax may load after the page: wait for its typesetting
  const typeset = window.MathJax && MathJax.startup && MathJax.startup.promise;
  if (typeset) typeset.then(focusableWideMaths);
  else if (tries > 0) setTimeout(() => afterMaths(tries - 1), 200);
};
window.addEventListener("load", () => afterMaths(100));
window.addEventListener("resize", focusableWideMaths);

// Tables wider than the screen: the theme lets them scroll sideways by keyboard (tabindex 0 on
// their scrolling box, -1 when they fit) but gives that box no role, so a screen reader announces
// a nameless stop. Each box that scrolls becomes a region named by its caption, or by its place
// among the page's tables (landmarks need names of their own); one that fits is left as it was.
(() => {
  const name = () => document.querySelectorAll(".pst-scrollable-table-container")
    .forEach((box, i) => {
      if (box.getAttribute("tabindex") !== "0") {
        if (box.dataset.named) ["role", "aria-label", "data-named"].forEach((a) => box.removeAttribute(a));
        return;
      }
      const caption = box.querySelector("caption");
      const zh = document.documentElement.lang.startsWith("zh");
      const what = caption ? caption.textContent.trim() : (zh ? `表格 ${i + 1}` : `table ${i + 1}`);
      box.setAttribute("role", "region");
      box.setAttribute("aria-label", `${what}${zh ? "，可横向滚动" : ", scrolls sideways"}`);
      box.dataset.named = "yes";
    });
  new MutationObserver(name).observe(document.documentElement, {
    subtree: true, attributes: true, attributeFilter: ["tabindex"],
  });
  window.addEventListener("load", name);
})();
