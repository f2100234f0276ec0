// MathJax does not load on the formgrader's pages: nbgrader's template asks a CDN for it, which
// the pages' Content Security Policy refuses (and a grading machine may be offline). formgrade.js
// waits for MathJax's start-up signal before it selects the first cell and lets the keyboard
// work, so it is given a MathJax whose start-up has ended; TeX in the notebook stays as text.
if (window.MathJax === undefined) {
    window.MathJax = {
        Hub: {
            Startup: {
                signal: {
                    Interest: function (hook) {
                        window.setTimeout(function () { hook("End"); }, 0);
                    }
                }
            },
            Queue: function () {},
            Typeset: function () {}
        }
    };
}
