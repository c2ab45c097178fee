// The solutions handout for instructors: a chapter page opened with ?handout=solutions prints
// only its "Check your understanding" and "Exercises" sections, every answer and solution open
// (book.css, print rules). `make pdf` prints each chapter this way as well as for students.
window.addEventListener("load", () => {
  if (new URLSearchParams(window.location.search).get("handout") !== "solutions") {
    return;
  }
  document.documentElement.classList.add("solutions-handout");
  document.querySelectorAll(".toggle-hidden").forEach((item) => {
    item.classList.remove("toggle-hidden");
  });
  document.querySelectorAll("details").forEach((item) => {
    item.open = true;
  });
});
