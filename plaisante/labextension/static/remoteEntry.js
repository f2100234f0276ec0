// Plaisante Kit's JupyterLab extension @plaisante/validate-message, written by hand (no build):
// a federated extension is a script that puts a container ({init, get}) in window._JUPYTERLAB,
// whose "./extension" module lists plugins.
//
// nbgrader's Validate button runs the released notebook, whose hidden tests were taken out at
// release, and on success its dialog says "Success! Your notebook passes all the tests." (a
// text fixed in nbgrader's own extension). That is not true: the hidden tests run only when
// the work is graded. This plugin puts the true sentence in its place, the one `nbgrader
// validate` prints in the course (plaisante/intake/nbgrader_validate.py; a test keeps them equal).
//
// On a failing notebook nbgrader's dialog shows, for each failing cell, "The following cell
// failed:", the cell's code and what its run showed. In the course the server names each test
// cell by its grade_id and says the kit's one line instead of a traceback (the same
// nbgrader_validate.py); this plugin then shows the dialog as `plaisante validate` does: one
// line a failing cell, "grade_id: what is not done or failing". A failure the server did not
// put so (a cell's code in place of its grade_id) leaves nbgrader's dialog as it is.
(function () {
  "use strict";
  var NBGRADER_SAYS = "Success! Your notebook passes all the tests.";
  var TRUE_TEXT = "Your notebook passes its visible tests. Hidden tests run when your work is graded: they look for the classic mistakes each step warns about, so passing here does not promise full marks.";

  var GRADE_ID = /^[A-Za-z0-9_-]+$/;

  // nbgrader's failure dialog: per failing cell, a <div><p>The following cell failed:</p></div>,
  // then the cell's source and its error, each a <div class="jp-RenderedText"><pre>
  function oneLineEach(message) {
    var parts = message.children;
    if (!parts.length || parts.length % 3 !== 0) {
      return;
    }
    var lines = [];
    for (var i = 0; i < parts.length; i += 3) {
      var source = parts[i + 1].querySelector("pre");
      var error = parts[i + 2].querySelector("pre");
      if (!source || !error || !GRADE_ID.test(source.textContent)) {
        return;  // not the kit's lines: nbgrader's dialog stays as it is
      }
      lines.push([source.textContent, error.textContent]);
    }
    var heading = document.createElement("p");
    heading.textContent = lines.length === 1 ? "1 test cell fails its visible tests:"
      : lines.length + " test cells fail their visible tests:";
    var list = document.createElement("ul");
    list.className = "plaisante-validate-lines";
    lines.forEach(function (line) {
      var item = document.createElement("li");
      var name = document.createElement("code");
      name.textContent = line[0];
      item.appendChild(name);
      item.appendChild(document.createTextNode(": " + line[1]));
      list.appendChild(item);
    });
    message.replaceChildren(heading, list);
  }

  function amend(node) {
    if (node.nodeType !== 1) {
      return;
    }
    var found = node.querySelectorAll("#validation-message.validation-success p");
    for (var i = 0; i < found.length; i++) {
      if (found[i].textContent === NBGRADER_SAYS) {
        found[i].textContent = TRUE_TEXT;
      }
    }
    var failed = node.querySelectorAll("#validation-message.validation-failed");
    for (var j = 0; j < failed.length; j++) {
      oneLineEach(failed[j]);
    }
  }

  var plugin = {
    id: "@plaisante/validate-message:plugin",
    description: "Validate's dialog says the visible tests pass and hidden ones run at grading, or one line a failing test cell.",
    autoStart: true,
    activate: function () {
      // nbgrader's dialog is a JupyterLab Dialog, attached to document.body: watch its children
      new MutationObserver(function (changes) {
        changes.forEach(function (change) {
          change.addedNodes.forEach(amend);
        });
      }).observe(document.body, { childList: true });
    }
  };
  var module = { __esModule: true, default: [plugin] };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB["@plaisante/validate-message"] = {
    init: function () {
      return Promise.resolve();
    },
    get: function (name) {
      if (name !== "./extension") {
        return Promise.reject(new Error("@plaisante/validate-message has no module " + name));
      }
      return Promise.resolve(function () {
        return module;
      });
    }
  };
})();
