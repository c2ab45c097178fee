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
