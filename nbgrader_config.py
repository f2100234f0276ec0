"""nbgrader's folders mapped onto the kit's (SPEC §4). Commands find this file from any folder
when run through `plaisante` or `make`; plain `nbgrader` must be run from this folder."""

import os

c = get_config()  # noqa: F821  (injected by traitlets when nbgrader loads this file)
HERE = os.path.dirname(os.path.abspath(__file__))

c.CourseDirectory.root = HERE
# The kit's folders (solutions/, starter/, assignments/submitted/…) and its gradebook, spelled
# once in plaisante/course.py; every `plaisante` command reads them back from this file.
from plaisante.course import DEFAULT_DB_URL, KIT_LAYOUT  # noqa: E402

for _setting, _folder in KIT_LAYOUT.items():
    setattr(c.CourseDirectory, _setting, _folder)
# The gradebook: any database nbgrader takes (an SQLAlchemy URL). Several graders at once: put
# it on PostgreSQL (README, "The gradebook on PostgreSQL"), e.g.
#   c.CourseDirectory.db_url = "postgresql+psycopg://grader@db.example.org/plaisante"
c.CourseDirectory.db_url = DEFAULT_DB_URL.format(root=HERE)
c.CourseDirectory.course_id = "plaisante-kit"
# The exchange (release/collect between accounts) lives in the course, so one machine needs no
# /srv/nbgrader/exchange and nbgrader's assignment list stops logging "Unwritable directory".
c.Exchange.root = os.path.join(HERE, "assignments", "exchange")
c.Execute.timeout = 30
# nbgrader's Validate says "Success! Your notebook passes all the tests." when the visible tests
# pass; `nbgrader validate` run here says that they pass and hidden tests run at grading instead
# (plaisante/intake/nbgrader_validate.py; the lab's button: the kit's JupyterLab extension).
from plaisante.intake.nbgrader_validate import install as _validate_says_what_it_ran  # noqa: E402

_validate_says_what_it_ran()
# Every HTML page nbgrader makes of a notebook (the formgrader's manual-grading page, feedback)
# shows what a student's kernel wrote or the student typed in inert forms only: text, PNG/JPEG,
# sanitised HTML (plaisante/inert.py).
c.HTMLExporter.preprocessors = ["plaisante.inert.InertContent"]
# Feedback never shows hidden tests' code (plaisante/grading/feedback.py).
# ... and its page is the kit's template: nbgrader's, with an index named by step.
from importlib.util import find_spec  # noqa: E402  (finds the packages without importing them)


def _package(name):
    spec = find_spec(name)
    return list(spec.submodule_search_locations)[0] if spec else ""


# Only feedback's exporter (the HTMLExporter whose parent is GenerateFeedback): the formgrader's
# manual-grading page renders with nbgrader's own formgrade template, which c.HTMLExporter would
# replace (the page then fails with TemplateNotFound).
c.GenerateFeedback.HTMLExporter.template_name = "feedback"  # nbgrader's, and ours beside it
c.GenerateFeedback.HTMLExporter.template_file = "plaisante_index.html.j2"
c.GenerateFeedback.HTMLExporter.extra_template_basedirs = [
    os.path.join(_package("plaisante"), "templates"),
    os.path.join(_package("nbgrader"), "server_extensions", "formgrader", "templates")]
# A failing hidden test is named by its "# Rule:" line; its message (input, expected, got) is
# shown once the assignment's due date in the gradebook has passed when this says
# "after_due_date" ("always": from the start; `plaisante feedback --reveal` does it for one run).
c.HideHiddenTests.reveal = "never"
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "plaisante.grading.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
