// corpusagree's HTML report: sort a table by the header whose button is pressed (numbers by
// their data-value, text otherwise; aria-sort says which way), and show the document chosen in
// a figure's list (without this script, every document shows).
document.querySelectorAll("table.data th button").forEach(function (button) {
  button.addEventListener("click", function () {
    var th = button.parentNode, table = th.closest("table"), body = table.tBodies[0];
    var i = Array.prototype.indexOf.call(th.parentNode.children, th);
    var up = th.getAttribute("aria-sort") !== "ascending";
    table.querySelectorAll("th[aria-sort]").forEach(function (h) {
      h.removeAttribute("aria-sort");
    });
    th.setAttribute("aria-sort", up ? "ascending" : "descending");
    function key(row) {
      var cell = row.cells[i], v = cell.dataset.value, n = parseFloat(v);
      return v !== undefined && v !== "" && !isNaN(n) ? n : cell.textContent;
    }
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = key(a), y = key(b);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (up ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  });
});
document.querySelectorAll("figure.plot select").forEach(function (select) {
  var pictures = select.closest("figure").querySelectorAll("[data-picture]");
  function show() {
    pictures.forEach(function (p) { p.hidden = p.dataset.picture !== select.value; });
  }
  select.addEventListener("change", show);
  show();
});
