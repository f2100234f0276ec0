"""Feedback keeps no text a submission could write: the ROT13 history leak."""

import codecs

from nbformat.v4 import new_code_cell, new_notebook, new_output

from plaisante.grading.feedback import HideHiddenTests, quoted_line

HIDDEN_LINE = 'expect_has(has_pair, "K♥ K♦ K♣ K♠ 9♥", False)'


def graded_cell(source, points, score, outputs):
    cell = new_code_cell(source, outputs=outputs)
    cell.metadata["nbgrader"] = {"grade": True, "grade_id": "t", "locked": True,
                                 "solution": False, "points": points, "score": score,
                                 "schema_version": 3}
    return cell


def scrubbed(*cells):
    nb, _ = HideHiddenTests().preprocess(new_notebook(cells=list(cells)), {})
    return nb


def test_encoded_hidden_code_printed_by_a_hook_does_not_reach_feedback():
    leak = codecs.encode(HIDDEN_LINE, "rot13")
    test = graded_cell(f"check_has(has_pair)\n### BEGIN HIDDEN TESTS\n{HIDDEN_LINE}\n"
                       "### END HIDDEN TESTS", 4, 0, [
                           new_output("stream", name="stdout", text=leak + "\n"),
                           new_output("error", ename="CheckFailed",
                                      evalue=f"has_pair(x): expected False, got {leak}",
                                      traceback=[leak])])
    student = new_code_cell("def has_pair(cards): ...", outputs=[
        new_output("stream", name="stdout", text=leak),
        new_output("display_data", data={"text/plain": leak})])
    nb = scrubbed(student, test)
    text = str(nb)
    assert leak not in text and HIDDEN_LINE not in text
    assert nb.cells[0].outputs == []
    (verdict,) = nb.cells[1].outputs
    assert verdict.ename == "CheckFailed"
    assert verdict.evalue == "a test in this cell failed (hidden tests' messages are not shown)"
    # what the page shows: the notebook's words, never the kit's class name
    assert verdict.traceback == ["✘ fails (in hidden tests): a test in this cell failed "
                                 "(hidden tests' messages are not shown)"]
    # no judge's report (plain nbgrader): which test failed is unknown, so none is blamed
    assert ("# Hidden tests were here (their code is not shown): this cell scored 0 of 4 points: "
            "a test in this cell failed, visible or hidden.") in nb.cells[1].source


def test_a_visible_only_test_keeps_its_message_and_an_invented_error_name_is_hidden():
    test = graded_cell("check_card(Card)", 6, 0, [new_output(
        "error", ename="Leak_" + "x" * 40, evalue="Card('K', 'hearts').rank: expected 'K', "
        "got 'k'\nsecond line", traceback=[])])
    (verdict,) = scrubbed(test).cells[0].outputs
    assert verdict.ename == "Error"
    assert verdict.evalue == "Card('K', 'hearts').rank: expected 'K', got 'k'"


def test_the_judges_report_lets_a_visible_failure_speak_in_a_cell_with_hidden_tests(
        tmp_path, monkeypatch):
    """With plaisante grade's report for this very autograded notebook, a failing visible test
    keeps its message though the cell holds hidden tests; without it, or for another notebook
    (say, after plain nbgrader autograde), the cell says only that a test failed."""
    import hashlib
    import json

    import nbformat

    from plaisante.course import CourseLayout

    message = "has_pair(K♥ Q♦ 3♣ 7♠ 9♥): expected False, got True"
    test = graded_cell(f"check_has(has_pair)\n### BEGIN HIDDEN TESTS\n{HIDDEN_LINE}\n"
                       "### END HIDDEN TESTS", 4, 0,
                       [new_output("error", ename="CheckFailed", evalue=message, traceback=[])])
    notebook = new_notebook(cells=[test])
    autograded = CourseLayout(tmp_path).autograded("ann", "plaisante")
    autograded.parent.mkdir(parents=True)
    nbformat.write(notebook, autograded)
    report = CourseLayout(tmp_path).report("plaisante", "ann")
    report.parent.mkdir(parents=True)
    digest = hashlib.sha256(autograded.read_bytes()).hexdigest()
    report.write_text(json.dumps({"failed_in": {"t": "visible"}, "autograded_sha256": digest}))
    monkeypatch.chdir(tmp_path)
    resources = {"nbgrader": {"student": "ann", "assignment": "plaisante",
                              "notebook": "plaisante"}}

    def verdict() -> str:
        nb, _ = HideHiddenTests().preprocess(nbformat.read(autograded, as_version=4),
                                             resources)
        return nb.cells[0].outputs[0].evalue

    assert verdict() == message
    report.write_text(json.dumps({"failed_in": {"t": "hidden"}, "autograded_sha256": digest}))
    assert verdict() == "a test in this cell failed (hidden tests' messages are not shown)"
    report.write_text(json.dumps({"failed_in": {"t": "visible"}, "autograded_sha256": "0" * 64}))
    assert verdict() == "a test in this cell failed (hidden tests' messages are not shown)"


def test_a_judged_own_tests_cell_says_how_many_were_caught_or_which_assertion_failed(
        tmp_path, monkeypatch):
    """*_my_tests cells grade a student's own tests in hidden tests; under the judge's report
    the feedback keeps the grader's summary line (how many caught, never which) and the
    failing assertion; without the report (plain nbgrader autograde) neither."""
    import hashlib
    import json

    import nbformat

    from plaisante.course import CourseLayout

    source = ("try_my_tests(my_count_values_tests, COUNT_VALUES_MISTAKES)\n"
              "### BEGIN HIDDEN TESTS\ngrade_my_tests(my_count_values_tests, points=4, "
              "mistakes=[version('skips the last card', count_values=_skips_last)])\n"
              "### END HIDDEN TESTS")
    summary = ("my_count_values_tests: passes on a correct count_values and catches 1 of 4 "
               "hidden buggy versions (1 of 4 points).\n")
    failing = ("my_count_values_tests fails on a correct count_values, so it cannot be graded: "
               "assert counts[3] == 0, 'no three'  → AssertionError: no three")
    passed = graded_cell(source, 4, 1, [new_output("stream", name="stdout", text=summary),
                                        new_output("execute_result", data={"text/plain": "1.0"})])
    failed = graded_cell(source, 4, 0, [new_output("error", ename="CheckFailed", evalue=failing,
                                                   traceback=[])])
    for cell in (passed, failed):
        cell.metadata["nbgrader"]["grade_id"] = "step2_my_tests"
    layout = CourseLayout(tmp_path)
    resources = {"nbgrader": {"student": "ann", "assignment": "plaisante",
                              "notebook": "plaisante"}}
    monkeypatch.chdir(tmp_path)
    autograded = layout.autograded("ann", "plaisante")
    autograded.parent.mkdir(parents=True)
    report = layout.report("plaisante", "ann")
    report.parent.mkdir(parents=True)
    for cell, shown in ((passed, summary), (failed, f"CheckFailed: {failing}")):
        nbformat.write(new_notebook(cells=[cell]), autograded)
        digest = hashlib.sha256(autograded.read_bytes()).hexdigest()
        report.write_text(json.dumps({"failed_in": {"step2_my_tests": "hidden"},
                                      "autograded_sha256": digest}))
        nb, _ = HideHiddenTests().preprocess(nbformat.read(autograded, as_version=4), resources)
        (output,) = nb.cells[0].outputs
        assert (output.text if output.output_type == "stream"
                else f"{output.ename}: {output.evalue}") == shown
        assert "skips the last card" not in json.dumps(nb)
        report.write_text(json.dumps({"failed_in": {}, "autograded_sha256": "0" * 64}))
        nb, _ = HideHiddenTests().preprocess(nbformat.read(autograded, as_version=4), resources)
        assert [o.get("evalue") for o in nb.cells[0].outputs] in (
            [], ["a test in this cell failed (hidden tests' messages are not shown)"])


RULED = ("check_has(has_straight)\n### BEGIN HIDDEN TESTS\n"
         "# Rule: four cards in a row are not a straight: it takes exactly 5\n"
         "expect_has(has_straight, '5♣ 6♦ 7♥ 8♠', False)\n"
         "# Rule: the cards of a straight may come in any order\n"
         "expect_has(has_straight, '9♣ 5♦ 7♥ 6♠ 8♣', True)\n"
         "### END HIDDEN TESTS\nvisible_checks_pass('has_straight')")
HIDDEN_MESSAGE = "has_straight(9♣ 5♦ 7♥ 6♠ 8♣): expected True, got False"


def judged_feedback(tmp_path, monkeypatch, report_fields, reveal="never", traceback=()):
    """Return (the hidden region's comment, the cell's one output) of a has_straight cell
    failing its second hidden check, after the judge's report with ``report_fields`` (None:
    no report, as after plain nbgrader autograde)."""
    import hashlib
    import json

    import nbformat

    from plaisante.course import CourseLayout

    layout = CourseLayout(tmp_path)
    monkeypatch.chdir(tmp_path)
    cell = graded_cell(RULED, 3, 0, [new_output("error", ename="CheckFailed",
                                                evalue=HIDDEN_MESSAGE, traceback=list(traceback))])
    cell.metadata["nbgrader"]["grade_id"] = "step3_has_straight"
    autograded = layout.autograded("ann", "plaisante")
    autograded.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(new_notebook(cells=[cell]), autograded)
    if report_fields is not None:
        report = layout.report("plaisante", "ann")
        report.parent.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(autograded.read_bytes()).hexdigest()
        report.write_text(json.dumps({"failed_in": {"step3_has_straight": "hidden"},
                                      "autograded_sha256": digest, **report_fields}))
    resources = {"nbgrader": {"student": "ann", "assignment": "plaisante",
                              "notebook": "plaisante"}}
    nb, _ = HideHiddenTests(reveal=reveal).preprocess(nbformat.read(autograded, as_version=4),
                                                      resources)
    (note,) = [line for line in nb.cells[0].source.splitlines() if line.startswith("# Hidden")]
    (output,) = nb.cells[0].outputs
    assert "9♣ 5♦" not in nb.cells[0].source
    return note, output


def test_a_failing_hidden_check_is_named_by_its_rule_without_its_input(tmp_path, monkeypatch):
    rule = "the cards of a straight may come in any order"
    note, output = judged_feedback(tmp_path, monkeypatch, {"rules": {"step3_has_straight": rule}})
    assert note == ("# Hidden tests ran here (their code is not shown): this cell scored 0 of 3 "
                    f"points: a hidden test failed: {rule}.")
    assert output.evalue == "a test in this cell failed (hidden tests' messages are not shown)"
    # a rule the report names is shown only when it is one of the cell's own rule lines
    note, _ = judged_feedback(tmp_path, monkeypatch, {"rules": {"step3_has_straight": "<b>x"}})
    assert note.endswith("points: a hidden test failed.")


def test_reveal_shows_the_judges_message_in_full_but_never_the_kernels(tmp_path, monkeypatch):
    rule = "the cards of a straight may come in any order"
    note, output = judged_feedback(tmp_path, monkeypatch, {"rules": {"step3_has_straight": rule}},
                                   reveal="always")
    assert output.evalue == HIDDEN_MESSAGE
    assert output.traceback == [f"✘ fails (in hidden tests, shown after the due date): "
                                f"{HIDDEN_MESSAGE}"]
    assert note.endswith(f"a hidden test failed: {rule} (its message, shown after the due "
                         "date, is below the cell).")
    # plain nbgrader autograde: the message is the kernel's, so it stays hidden
    _, output = judged_feedback(tmp_path, monkeypatch, None, reveal="always")
    assert output.evalue == "a test in this cell failed (hidden tests' messages are not shown)"


def test_plain_nbgrader_names_the_rule_its_traceback_points_at(tmp_path, monkeypatch):
    """Without the judge's report the kernel's traceback says which line raised: it can only
    choose among the cell's own rule lines (their text is the source notebook's)."""
    frame = ("\x1b[0;31mCheckFailed\x1b[0m  Traceback (most recent call last)\n"
             "Cell \x1b[0;32mIn[31], line 6\x1b[0m\n----> 6 [hidden test code removed]")
    note, _ = judged_feedback(tmp_path, monkeypatch, None, traceback=["", frame])
    assert note == ("# Hidden tests were here (their code is not shown): this cell scored 0 of 3 "
                    "points: a test in this cell failed, visible or hidden (by the traceback, the "
                    "hidden check of the rule: the cards of a straight may come in any order).")
    note, _ = judged_feedback(tmp_path, monkeypatch, None, traceback=["Cell In[3], line 1"])
    assert note.endswith("points: a test in this cell failed, visible or hidden.")
    # a chained error: its cause, printed first, ran in the student's function (line 4 of
    # their cell); the cell's own line is the last of its frames
    chained = ["Cell In[30], line 4, in has_straight(cards)\n----> 4 return False",
               "The above exception was the direct cause of the following exception:",
               "Cell \x1b[0;32mIn[31], line 6\x1b[0m\n----> 6 [hidden test code removed]"]
    note, _ = judged_feedback(tmp_path, monkeypatch, None, traceback=chained)
    assert note.endswith("(by the traceback, the hidden check of the rule: the cards of a "
                         "straight may come in any order).")


def answer_cell(source, outputs=()):
    cell = new_code_cell(source, outputs=list(outputs))
    cell.metadata["nbgrader"] = {"grade": False, "grade_id": "step2_count_values_code",
                                 "locked": False, "solution": True, "schema_version": 3}
    return cell


def test_an_answer_cell_that_does_not_parse_says_where_on_the_feedback_page():
    """A SyntaxError stops the answer cell before it defines anything, and the test cell
    below only says the function is not defined yet: the answer cell itself says, in one
    line, which line does not parse and why, worked out from its source by the grader (not
    the kernel's words), with nothing of the hidden tests."""
    kernel_said = new_output("error", ename="SyntaxError", evalue=HIDDEN_LINE,
                             traceback=[HIDDEN_LINE])
    broken = answer_cell("def count_values(cards)\n    return [0] * 15", [kernel_said])
    test = graded_cell(f"expect_counts(count_values, '', [0] * 15)\n### BEGIN HIDDEN TESTS\n"
                       f"{HIDDEN_LINE}\n### END HIDDEN TESTS", 8, 0, [new_output(
                           "error", ename="NotImplementedError",
                           evalue="count_values (step 2) is not defined yet", traceback=[])])
    nb = scrubbed(broken, test)
    (said,) = nb.cells[0].outputs
    line = ("this cell did not run: line 1, \"def count_values(cards)\", has a SyntaxError "
            "(expected ':'), so count_values was not defined; fix that line and run the cell "
            "again")
    assert (said.output_type, said.ename, said.evalue) == ("error", "SyntaxError", line)
    assert said.traceback == [f"✘ SyntaxError: {line}"]
    assert HIDDEN_LINE not in str(nb)
    assert nb.cells[1].outputs[0].evalue == "a test in this cell failed (hidden tests' "\
        "messages are not shown)"


def test_the_line_that_does_not_parse_is_quoted_so_no_one_counts_lines():
    """The page shows the answer without line numbers: the message quotes the line, stripped
    and cut at 60 characters; a blank line or one past the end is only numbered."""
    source = ("def count_values(cards):\n    counts = [0] * 15\n    for card in cards\n"
              "        counts[card.value] += 1\n    return counts")
    said = scrubbed(answer_cell(source)).cells[0].outputs[0].evalue
    assert said.startswith("this cell did not run: line 3, \"for card in cards\", has a "
                           "SyntaxError (expected ':'), so count_values was not defined")
    long = "x = (" + "1 + " * 30 + "1) )"
    said = scrubbed(answer_cell(long)).cells[0].outputs[0].evalue
    assert f'line 1, "{long[:59]}…", has a SyntaxError' in said
    unclosed = scrubbed(answer_cell("def count_values(cards):\n    return [0] * (15\n"))
    assert unclosed.cells[0].outputs[0].evalue.startswith(
        "this cell did not run: line 2, \"return [0] * (15\", has a SyntaxError ('(' was "
        "never closed)")
    assert [quoted_line("a\n\nb", n) for n in (None, 0, 1, 2, 3, 4)] == [
        "", "", ', "a",', "", ', "b",', ""]
    assert quoted_line("print('\x1b[31mred')", 1) == ', "print(\'?[31mred\')",'
    # a form feed in a string, a U+2028 in a comment: a line of str.splitlines, not Python's
    assert quoted_line('s = "a\x0cb"\nfor card in cards\n', 2) == ', "for card in cards",'
    assert quoted_line("# note\u2028x\r\ndef count(cards)\rpass", 2) == ', "def count(cards)",'
    assert quoted_line("a\n", 2) == ""


def test_a_bad_indent_is_named_and_a_cell_that_parses_says_nothing():
    """IndentationError is a SyntaxError too; a cell IPython runs (a magic, a top-level
    await) parses, so it keeps no output, as before."""
    indented = scrubbed(answer_cell("def count_values(cards):\nreturn []")).cells[0]
    assert indented.outputs[0].evalue == (
        "this cell did not run: line 2, \"return []\", has an IndentationError (expected an "
        "indented block after function definition on line 1), so count_values was not "
        "defined; fix that line and run the cell again")
    for fine in ("%time x = 1\ndef count_values(cards):\n    return []",
                 "import asyncio\nawait asyncio.sleep(0)"):
        assert scrubbed(answer_cell(fine, [new_output("stream", name="stdout", text="hi")])
                        ).cells[0].outputs == []
