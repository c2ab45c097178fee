// Where RequireJS finds the widget modules, all served by this site (`make book` fetches them from
// npm at pinned versions): the manager's fonts and anywidget, whose explorables compute in the
// reader's browser. Relative to this file, so that it holds on every page, at every depth.
(() => {
  const here = document.currentScript.src.replace(/[^/]*$/, "");
  window.requirejs.config({
    paths: {
      anywidget: `${here}widgets/anywidget`,
      // The manager's modules find their fonts beside their own address.
      "@jupyter-widgets": `${here}widgets`,
      "@jupyter-widgets/html-manager/dist": `${here}widgets`,
    },
  });
})();
