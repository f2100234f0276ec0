// Plaisante Kit's JupyterLab extension @plaisante/validate-message, written by hand (no build):
// a federated extension is a script that puts a container ({init, get}) in window._JUPYTERLAB,
// whose "./extension" module lists plugins.
//
// nbgrader's Validate button runs the released notebook, whose hidden tests were taken out at
// release, and on success its dialog says "Success! Your notebook passes all the tests." (a
// text fixed in nbgrader's own extension). That is not true: the hidden tests run only when
// the work is graded. This plugin puts the true sentence in its place, the one `nbgrader
// validate` prints in the course (plaisante/intake/nbgrader_validate.py; a test keeps them equal).
(function () {
  "use strict";
  var NBGRADER_SAYS = "Success! Your notebook passes all the tests.";
  var TRUE_TEXT = "Your notebook passes its visible tests. Hidden tests run when your work is graded: they look for the classic mistakes each step warns about, so passing here does not promise full marks.";

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
  }

  var plugin = {
    id: "@plaisante/validate-message:plugin",
    description: "Validate's success dialog says the visible tests pass and hidden ones run at grading.",
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
