// The saved widgets as the website shows them, with no Python behind them (book.css styles both).
//
// Slider readouts are for reading. The widget manager makes each readout editable, but on the
// site a typed value would change neither the picture nor the frame: the readout stays as the
// slider sets it.
//
// A block made by `interact` runs its function in Python each time a control moves: on the site
// it keeps the picture the notebook drew. Its controls are disabled, and a note on the block says
// that it runs in a notebook, with the chapter's Colab link beside it.
(() => {
  const readOnly = (readout) => {
    if (readout.getAttribute("contenteditable") !== "false") {
      readout.setAttribute("contenteditable", "false");
    }
  };

  const colabLink = () => {
    const launch = document.querySelector('a[href^="https://colab.research.google.com/"]');
    return launch && launch.getAttribute("href");
  };

  const notice = () => {
    const note = document.createElement("p");
    note.className = "frozen-notice";
    note.setAttribute("role", "note");
    const text = (where, words) => {
      const span = document.createElement("span");
      span.className = where;
      span.textContent = words;
      return span;
    };
    note.append("This block runs in a notebook: each change of its controls runs Python, ",
      text("on-screen", "so here they are disabled and the picture is the one the notebook "
        + "drew. "),
      text("on-paper", "and the picture printed is the one the notebook drew. "));
    const href = colabLink();
    if (href) {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = "Open this chapter on Colab";
      note.append(link, ".");
    }
    return note;
  };

  const freeze = (block) => {
    if (!block.querySelector(":scope > .frozen-notice")) {
      block.prepend(notice());
    }
    block.querySelectorAll("input, select, button, textarea").forEach((control) => {
      if (!control.disabled) control.disabled = true;
    });
    block.querySelectorAll(".noUi-target").forEach((slider) => {
      if (!slider.hasAttribute("disabled")) slider.setAttribute("disabled", "");
    });
    block.querySelectorAll(".noUi-handle").forEach((handle) => {
      if (handle.getAttribute("tabindex") !== "-1") handle.setAttribute("tabindex", "-1");
      if (handle.getAttribute("aria-disabled") !== "true") {
        handle.setAttribute("aria-disabled", "true");
      }
    });
    block.classList.add("frozen");
  };

  const update = () => {
    document.querySelectorAll(".widget-readout").forEach(readOnly);
    document.querySelectorAll(".widget-interact").forEach(freeze);
  };
  // The widgets draw after the page loads, and a readout is made editable again when its slider
  // moves: the changes are watched.
  new MutationObserver(update).observe(document.documentElement, {
    childList: true, subtree: true, attributes: true,
    attributeFilter: ["contenteditable", "tabindex", "disabled"],
  });
  window.addEventListener("load", update);
})();
