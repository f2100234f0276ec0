// Plaisante Kit's JupyterLite extension @plaisante/lite-starting, written by hand (no build):
// a federated extension is a script that puts a container ({init, get}) in window._JUPYTERLAB,
// whose "./extension" module lists plugins.
//
// In the students' site Python runs in the browser (Pyodide). Its first start loads the
// interpreter and the kit's wheels: 40 to 90 seconds on a slow machine, during which the status
// bar only says "Initializing" and a Run All seems to do nothing. While the kernel of the
// notebook in view is starting, this plugin shows a notice at the foot of the page, with
// the seconds gone, in a live region (a screen reader hears it once); it goes when the kernel
// is ready. It reads the kernel's state from the status bar ("Python (Pyodide) | Idle"), so it
// needs none of JupyterLab's tokens.
(function () {
  "use strict";
  var STARTING = /\|\s*(Initializing|Starting|Connecting|Unknown|Restarting)\s*$/;
  var READY = /\|\s*(Idle|Busy)\s*$/;
  var CLASS = "plaisante-lite-starting";
  var started = null;

  function kernelState() {
    var items = document.querySelectorAll(".jp-StatusBar-TextItem");
    for (var i = 0; i < items.length; i++) {
      var text = (items[i].textContent || "").trim();
      if (STARTING.test(text)) {
        return "starting";
      }
      if (READY.test(text)) {
        return "ready";
      }
    }
    return "none";
  }

  function notice() {
    var found = document.querySelector("." + CLASS);
    if (found) {
      return found;
    }
    // fixed over the page, above the status bar (the toolbar's Run buttons stay free):
    // JupyterLab lays out a notebook panel's children itself, and a node added among them is
    // drawn under the notebook
    var box = document.createElement("div");
    box.className = CLASS;
    box.setAttribute("role", "status");
    box.style.cssText = "position:fixed;bottom:34px;left:50%;transform:translateX(-50%);" +
      "z-index:10000;width:min(640px,calc(100vw - 32px));box-sizing:border-box;" +
      "padding:10px 14px;border:1px solid #8a6d00;border-left:6px solid #8a6d00;" +
      "background:#fff8d6;color:#3d3000;font-size:14px;line-height:1.45;border-radius:4px;" +
      "box-shadow:0 2px 8px rgba(0,0,0,0.25)";
    var words = document.createElement("span");
    words.textContent = "Python is starting in your browser. The first start takes up to a " +
      "minute or two (it loads Python once; later runs are quick). Cells you run now wait, " +
      "then run by themselves.";
    var clock = document.createElement("span");
    clock.className = CLASS + "-clock";
    clock.setAttribute("aria-hidden", "true");
    clock.style.marginLeft = "0.5em";
    clock.style.fontVariantNumeric = "tabular-nums";
    box.appendChild(words);
    box.appendChild(clock);
    document.body.appendChild(box);
    return box;
  }

  function tick() {
    var state = kernelState();
    var notebook = document.querySelector(".jp-NotebookPanel:not(.lm-mod-hidden)");
    var shown = document.querySelector("." + CLASS);
    if (notebook && state === "starting") {
      started = started || Date.now();
      var clock = notice().querySelector("." + CLASS + "-clock");
      clock.textContent = "(" + Math.round((Date.now() - started) / 1000) + " s)";
    } else if (shown) {
      shown.parentNode.removeChild(shown);
    }
    if (state !== "starting") {
      started = null;
    }
  }

  var plugin = {
    id: "@plaisante/lite-starting:plugin",
    description: "A notice over the notebook while Python starts in the browser.",
    autoStart: true,
    activate: function () {
      window.setInterval(tick, 500);
    }
  };
  var module = { __esModule: true, default: [plugin] };

  window._JUPYTERLAB = window._JUPYTERLAB || {};
  window._JUPYTERLAB["@plaisante/lite-starting"] = {
    init: function () {
      return Promise.resolve();
    },
    get: function (name) {
      if (name !== "./extension") {
        return Promise.reject(new Error("@plaisante/lite-starting has no module " + name));
      }
      return Promise.resolve(function () {
        return module;
      });
    }
  };
})();
