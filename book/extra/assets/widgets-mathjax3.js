// The ipywidgets embed manager typesets widget labels through MathJax 2's `MathJax.Hub.Queue`.
// This site serves MathJax 3, so route those calls to MathJax 3's `typesetPromise`.
window.MathJax.Hub = {
  Queue: (job) => window.MathJax.startup.promise.then(() => window.MathJax.typesetPromise([job[2]])),
};
