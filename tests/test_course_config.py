"""plaisante grade follows the course's nbgrader_config.py, as nbgrader autograde does:
the cell time limit (``c.Execute.timeout``) and late penalties (the due date in the gradebook,
``c.LateSubmissionPlugin.penalty_method``); ``plaisante submit`` stamps the time."""

from __future__ import annotations

import datetime
import re
import shutil
import subprocess
from pathlib import Path

import nbformat
import pytest
from course_cli import cli
from nbgrader.utils import parse_utc

from plaisante.results import scores

ROOT = Path(__file__).resolve().parents[1]
FULL_MARKS = ROOT / "assignments" / "samples" / "plaisante" / "full_marks.ipynb"

pytestmark = [pytest.mark.nbgrader, pytest.mark.sandbox]


def plaisante(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return cli(*args, cwd=cwd, check=False)


@pytest.fixture(scope="module")
def course(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A course whose config sets a 5 s cell limit and zero marks for late work, due in 2026's
    first second; 'late' submits the full marks sample now, 'slow' one whose step 3 answer
    cell sleeps 8 s, 'punctual' the full marks sample stamped before the due date."""
    root = tmp_path_factory.mktemp("configured")
    shutil.copytree(ROOT / "solutions", root / "solutions")
    (root / "assignments").mkdir()
    config = (ROOT / "nbgrader_config.py").read_text(encoding="utf-8")
    (root / "nbgrader_config.py").write_text(
        config + '\nc.Execute.timeout = 5\nc.LateSubmissionPlugin.penalty_method = "zero"\n',
        encoding="utf-8")
    done = plaisante("release", cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    # one line per assignment, no nbgrader log (its INFO lines said nothing an instructor uses)
    assert done.stdout.splitlines()[0] == ("plaisante release: plaisante -> starter/plaisante/"
                                          "plaisante.ipynb (24 test cells, 100 points)")
    assert done.stderr == ""
    again = plaisante("release", "plaisante", cwd=root)
    assert again.stdout.splitlines()[0].endswith(", replacing the earlier release")
    assert not again.stderr
    done = plaisante("nbgrader", "db", "assignment", "add", "plaisante",
                     "--duedate=2026-01-01 00:00:00 UTC", cwd=root)
    assert done.returncode == 0, done.stderr[-2000:]
    slow = nbformat.read(FULL_MARKS, as_version=4)
    for cell in slow.cells:
        if cell.metadata.get("nbgrader", {}).get("grade_id") == "step3_has_checks":
            cell.source += "\n\nimport time\ntime.sleep(8)\n"
    # 'late' by the one-notebook submit (whose stamp is checked), the others as a class folder
    assert plaisante("submit", str(FULL_MARKS), "--student", "late", cwd=root).returncode == 0
    folder = tmp_path_factory.mktemp("class")
    nbformat.write(slow, folder / "slow.ipynb")
    shutil.copy(FULL_MARKS, folder / "punctual.ipynb")
    assert plaisante("submit", str(folder), "--assignment", "plaisante", cwd=root).returncode == 0
    stamp = root / "assignments" / "submitted" / "punctual" / "plaisante" / "timestamp.txt"
    stamp.write_text("2025-12-31 12:00:00.000000 UTC\n", encoding="utf-8")
    return root


def test_submit_writes_an_nbgrader_timestamp(course):
    text = (course / "assignments" / "submitted" / "late" / "plaisante" /
            "timestamp.txt").read_text(encoding="utf-8").strip()
    when = parse_utc(text)
    assert abs(when - datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)) \
        < datetime.timedelta(minutes=30)
    assert text.endswith(" UTC")


def test_grade_and_autograde_agree_on_the_configured_rules(course):
    done = plaisante("grade", "plaisante", "--workers", "2", cwd=course)
    assert done.returncode == 0, (done.stdout[-2000:], done.stderr[-2000:])
    judged = {student: scores.step_scores(course, student, "plaisante")
              for student in ("late", "slow", "punctual")}
    # the late penalty takes everything; the slow cell times out at 5 s, so step 3's
    # has-checks (defined in that cell, before the sleep) are graded as interrupted
    assert judged["punctual"]["total"] == 100
    assert (judged["late"]["late_penalty"], judged["late"]["total"]) == (100, 0)
    assert re.search(r"^late\s+graded\s+0 / 100\s+\S+\s+late: 100 point\(s\) off",
                     done.stdout, re.M), done.stdout
    assert re.search(r"^slow\s+flagged\s.*timeout: step3_has_checks ran over 5 s", done.stdout,
                     re.M), done.stdout

    done = plaisante("autograde", cwd=course)
    assert done.returncode == 0, done.stderr[-2000:]
    plain = {student: scores.step_scores(course, student, "plaisante")
             for student in ("late", "slow", "punctual")}
    assert judged == plain
