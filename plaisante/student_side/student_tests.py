"""Students' own tests, judged the way Examplar judges them ("wheats and chaffs").

A student writes a test function of the implementations it is given, e.g.
``def my_count_values_tests(count_values):`` with plain ``assert``s. Its verdict is made of
runs: one run calls the student's function once, with one *version* of the implementations
(a ``Version``: the correct one, or a buggy one named by its mistake). A run fails when the
student's function raises.

* In the student's notebook, ``try_my_tests`` runs the tests on the student's own code and on a
  few visible buggy versions, and prints which mistakes they catch. It never raises but for
  tests not written yet (NotImplementedError).
* When graded, ``grade_my_tests`` runs the tests on the reference (every reference run must
  pass, else the cell scores 0 and says so, in the grader's words) and on hidden buggy
  versions, in an order drawn at random; it returns the points earned, one share per version
  caught, and says how many were caught, not which. Under the judge every run has a kernel of
  its own (``Session.renewal``: the notebook's cells before the test cell run again in it), so
  the reference runs once; elsewhere (the student's kernel, ``plaisante autograde``) the runs
  share one process and the reference runs ``REFERENCE_RUNS`` times.

Under the judge the student's function stays in the kernel and every implementation stays in the
grader (the kernel's side: ``plaisante.kernel.routed``; the grader's:
``plaisante.grading.routed``): each call of an implementation is routed from the kernel to the
grader and back over the kernel's stdin channel (the reverse of the judge's direction). The
kernel is asked the same question for every run (``{"op": "routed", "f": the tests, "params":
names}``) and only ever sees the answers of the implementation a call reached; which run is the
reference is drawn in the grader with ``random.SystemRandom`` and never sent. So a test that
compares the code of what it is given (bytecode, source, identity) sees the same proxy in every
run and catches nothing; what the kernel can learn of a run is what the answers reveal.

Values crossing, both directions, are plain data (``plaisante.student_side.wire.Plain``): None,
bools, ints, strs, lists, tuples and dicts of them, and cards (any object with a string ``rank`` and
``suit`` of the kit's deck), which the implementation receives as the kit's cards
(``KitCard``) of that rank and suit.

An implementation may be a class (a machine, say). The objects a test makes with it stay in the
grader too: the kernel gets a ``RoutedObject`` whose public attributes are read or set, and
whose methods are called, each by a routed question ({"ob": index, "op": "get"/"set"/"call",
"n": name}). Only public names (no leading ``_``) reach the object, only plain data comes back
(a method is answered ``{"method": true}``), and only objects a class part made are reachable.

Every version looks the same to the kernel but for its answers. The runs are built from copies
of the parts named after the parameter (``plaisante.student_side.surface.public``: a function
``count_values``, a class ``Machine`` whose methods are ``Machine.deal``…, whichever version it
is). A call is checked against the reference's signature before any version sees it, and a bad
one is answered with a text of ours (``count_values() got an unexpected keyword argument 'x'``);
a missing attribute too (``'Machine' object has no attribute 'x'``). Any other error an
implementation raises goes as its nearest builtin class and its text scrubbed of every version's
name and of addresses (``plaisante.student_side.surface.Surface``). What a run gives the objects it
makes (attributes it sets, arguments of their methods) is bounded in total
(``plaisante.grading.routed.MAX_STORED``): past it the call is refused and the run fails.
"""

from __future__ import annotations

import functools
import random
import re
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..kernel.routed import Outcome, run_locally
from .assignment import Placeholder
from .checking import CheckFailed
from .surface import Surface, public, surface
from .tracebacks import defined_in, newer_version_failed

REFERENCE_RUNS = 2  # the reference runs this many times, at random places among the runs
#: One run of tests that live in the student's kernel (``run_once``'s arguments, its outcome).
RemoteRunner = Callable[[Any, dict[str, Callable[..., Any]], Surface | None], Outcome]
#: Given by the grader's side (``plaisante.grading.routed``, loaded with ``plaisante.grading``),
#: so that this side never imports the grader; None in a kernel, where tests run here.
remote_runner: RemoteRunner | None = None


@dataclass(frozen=True)
class Version:
    """A version of the implementations a student's tests are run on: ``mistake`` names it
    (e.g. "counts from slot 0"), ``parts`` maps each parameter name to its implementation."""

    mistake: str
    parts: dict[str, Callable[..., Any]] = field(default_factory=dict)


def version(mistake: str, **parts: Callable[..., Any]) -> Version:
    """Return ``Version(mistake, parts)``: ``version("counts from slot 0", count_values=f)``."""
    return Version(mistake, dict(parts))


def is_remote(value: Any) -> bool:
    """Return True for the judge's handle on an object that lives in the student's kernel."""
    return getattr(type(value), "__plaisante_substitute__", None) is not None \
        and hasattr(value, "_session")


def run_once(tests: Any, parts: dict[str, Callable[..., Any]],
             shown: Surface | None = None) -> Outcome:
    """Run the student's ``tests`` once on ``parts``: here, or routed when they live in the
    student's kernel."""
    if not is_remote(tests):
        return run_locally(tests, parts)
    if remote_runner is None:
        raise RuntimeError("the student's tests live in a kernel, and no grader's side is "
                           "loaded to run them there (plaisante.grading.routed)")
    return remote_runner(tests, parts, shown)


def _shuffled(versions: Sequence[Version], reference: dict[str, Callable[..., Any]],
              reference_runs: int = REFERENCE_RUNS
              ) -> Iterator[tuple[int | None, dict[str, Callable[..., Any]]]]:
    """Yield (index of the version or None for the reference, its parts) in a random order
    drawn from the operating system (never seeded, never sent). Every part is given the
    parameter's name (``public``), in every run alike."""
    shown = {name: public(name, part) for name, part in reference.items()}
    runs: list[tuple[int | None, dict[str, Callable[..., Any]]]] = [
        (None, shown)] * reference_runs
    runs += [(index, {**shown, **{name: public(name, part) for name, part in v.parts.items()}})
             for index, v in enumerate(versions)]
    random.SystemRandom().shuffle(runs)
    yield from runs


def _name(tests: Any) -> str:
    name = getattr(tests, "__name__", "your tests")
    return name if type(name) is str else "your tests"


# ------------------------------------------------------------------ what the cells call

def _stale(own: dict[str, Any]) -> str | None:
    """Say which of the student's own parts is an older version than the one their notebook
    last tried to define (``tracebacks.newer_version_failed``), or None."""
    for part in own.values():
        filename = defined_in(part)
        name = getattr(part, "__name__", None)
        if filename and isinstance(name, str) and (said := newer_version_failed(name, filename)):
            return said
    return None


def try_my_tests(tests: Any, mistakes: Sequence[Version], **own: Callable[..., Any]) -> None:
    """In the student's notebook: run ``tests`` on the student's own parts (``own``), then on
    each visible buggy version, and print what they catch, by mistake. Never raises but for
    tests not written yet (NotImplementedError). Under the judge it does nothing: the grade is
    ``grade_my_tests``'s."""
    if is_remote(tests):
        return
    name = _name(tests)
    outcome = run_locally(tests, own)
    runs = [run_locally(tests, {**own, **mistake.parts}) for mistake in mistakes]
    if outcome.status == "todo" and all(run.status == "todo" for run in runs):
        raise NotImplementedError(f"{name} is not written yet (it still raises "
                                  "NotImplementedError)")
    parts = ", ".join(own)
    again = run_locally(tests, own) if outcome.status == "pass" else outcome
    unproven = False  # the tests fail where a correct part passes: their catches count for nothing
    if outcome.status == "todo" and (missing := [n for n, f in own.items()
                                                 if isinstance(f, Placeholder)]):
        # its cell did not run or failed (a SyntaxError, say): no NotImplementedError is left
        print(f"Your own {', '.join(missing)} is not defined yet (run the cell that defines it; "
              "if that cell shows an error, fix it first), so your tests were tried on the "
              "buggy versions alone.")
    elif outcome.status == "todo" and (stale := _stale(own)):
        print(f"{stale[0].upper()}{stale[1:]} (so your tests were tried on the buggy versions "
              "alone).")
    elif outcome.status == "todo":
        print(f"Your own {parts} is not finished yet (it raises NotImplementedError), so your "
              "tests were tried on the buggy versions alone.")
    elif outcome.status == "fail" and (wrong := wrong_parts(tests, own)):
        named = ", ".join(wrong)
        print(f"Your tests catch a mistake in your own {named}: {outcome.message}\n"
              f"Your {named} {'fails its' if len(wrong) == 1 else 'fail their'} visible "
              "checks too: the test looks right, fix the code.")
    elif outcome.status == "fail":
        unproven = True
        print(f"On your own {parts}, your tests fail: {outcome.message}\n"
              f"Either your {parts} or the test is wrong: a test must pass on correct code.")
    elif again.status == "fail":  # e.g. a deck made outside the tests, emptied by the first run
        unproven = True
        print(f"On your own {parts}, your tests fail when run again: {again.message}\n"
              f"Grading runs them several times: make what they use (a deck, say) inside "
              f"{name}, not outside it.")
    else:
        print(f"On your own {parts}, your tests pass.")
    caught = []
    for mistake, run in zip(mistakes, runs):
        caught.append(run.status == "fail")
        mark = "caught" if run.status == "fail" else "missed"
        print(f"  {mark}: a {', '.join(mistake.parts)} that {mistake.mistake}")
    if unproven:  # a test that always fails "catches" every buggy version
        print(f"They catch {sum(caught)} of the {len(caught)} buggy versions shown here, but a "
              "test that fails on correct code catches anything: make them pass first. When "
              "your work is graded they run on a correct version, and this cell scores 0 "
              "while they fail there.")
        return
    print(f"They catch {sum(caught)} of the {len(caught)} buggy versions shown here. When your "
          "work is graded they run on a correct version (they must pass) and on hidden "
          "buggy versions.")


def wrong_parts(tests: Any, own: dict[str, Any]) -> list[str]:
    """Return the names of the student's ``own`` parts that a run of ``tests`` called (a
    class counts as called) and that fail their visible checks (the step checks of the
    course's assignment that has them): what a failing run of the tests caught, when the
    tests are right. Empty when no such part is found."""
    from ..games import COURSE, load

    called: set[str] = set()

    def recording(name: str, part: Any) -> Any:
        if not isinstance(part, types.FunctionType):
            called.add(name)
            return part

        @functools.wraps(part)
        def call(*args: Any, **kwargs: Any) -> Any:
            called.add(name)
            return part(*args, **kwargs)
        return call

    run_locally(tests, {name: recording(name, part) for name, part in own.items()})
    checks = next(({name: [check for step in assignment.steps for part, check in step.checks
                           if part == name] for name in own}
                   for assignment in map(load, COURSE) if set(own) <= set(assignment.parts)),
                  {})
    wrong = []
    for name in own:
        try:
            for check in checks.get(name, []) if name in called else []:
                check(own[name])
        except Exception:  # noqa: BLE001  a failing or broken check: the part is wrong
            wrong.append(name)
    return wrong


_OWN_FAIL = re.compile(r"^On your own (.+?), your tests fail(?: when run again)?: (.*)$", re.M)
_OWN_CAUGHT = re.compile(r"^Your tests catch a mistake in your own (.+?): (.*)$", re.M)
_CAUGHT = re.compile(r"^They catch (\d+) of the (\d+) buggy versions shown here\.", re.M)


def in_short(printed: str) -> tuple[str | None, str | None]:
    """Read what ``try_my_tests`` printed (``printed``, a test cell's output) for ``plaisante
    validate``: return (the problem, in one line, or None; the catch count, in one line, or
    None). Both None when ``printed`` is not such a report."""
    failed, caught = _OWN_FAIL.search(printed), _CAUGHT.search(printed)
    right = _OWN_CAUGHT.search(printed)
    problem = (f"your tests fail on your own {failed.group(1)}: {failed.group(2)}"
               if failed else None)
    count = (f"your tests catch {caught.group(1)} of the {caught.group(2)} buggy versions "
             "shown in the notebook" if caught else None)
    if right:  # not a failure: grading runs the tests on a correct version, where they pass
        count = "; ".join(filter(None, [f"your tests catch a mistake in your own "
                                        f"{right.group(1)} (fix it): {right.group(2)}", count]))
    return problem, count


def grade_my_tests(tests: Any, reference: dict[str, Callable[..., Any]],
                   mistakes: Sequence[Version], points: float) -> float:
    """Grade the student's ``tests``: every reference run must pass (else CheckFailed naming
    the failing assertion); then ``points`` × the share of ``mistakes`` caught. Returns the
    points earned (the test cell's last value: nbgrader's partial credit) and prints how many
    were caught, never which. Raises NotImplementedError while the tests are not written."""
    name = _name(tests)
    parts = ", ".join(reference)
    caught = 0
    shown = surface(reference, [mistake.parts for mistake in mistakes])
    remote = is_remote(tests)
    isolated = remote and tests._session.renewal is not None  # a fresh kernel for every run
    for index, parts_of_run in _shuffled(mistakes, reference,
                                         1 if isolated else REFERENCE_RUNS):
        outcome = run_once(tests, parts_of_run, shown)
        if outcome.status == "todo":
            raise NotImplementedError(f"{name} is not written yet (it still raises "
                                      "NotImplementedError)")
        if index is None and outcome.status == "fail" and remote and not outcome.by_grader:
            # the kernel's message could carry the correct version's answers to any question
            why = (f"the correct {parts} raised a {outcome.refused} at one of its calls (call "
                   "it only as the step states)" if outcome.refused else
                   "an assertion failed or an error was raised")
            raise CheckFailed(f"{name} fails on a correct {parts}, so it cannot be graded: "
                              f"{why} (run the cell after {name} in your notebook to see "
                              "which)")
        if index is None and outcome.status == "fail":
            raise CheckFailed(f"{name} fails on a correct {parts}, so it cannot be graded: "
                              f"{outcome.message}")
        if index is not None and outcome.status == "fail":
            caught += 1
    earned = round(points * caught / len(mistakes), 2) if mistakes else float(points)
    print(f"{name}: passes on a correct {parts} and catches {caught} of {len(mistakes)} "
          f"hidden buggy versions ({earned:g} of {points:g} points).")
    return earned


class _Reached(BaseException):
    """Raised by ``check_written``'s stand-ins: the tests got as far as calling a part."""


def _reached(*args: Any, **kwargs: Any) -> Any:
    raise _Reached()


def check_written(tests: Any, *parameters: str) -> None:
    """The gate's check of an own-tests step: raise CheckFailed unless ``tests`` takes exactly
    the parameters named ``parameters`` (e.g. ``"trick_winner"``); NotImplementedError goes
    through while it raises that before calling any part. Whatever else it does (passes,
    fails, calls a part) counts as written: what the tests catch is graded with the work, by
    ``grade_my_tests``."""
    import inspect

    stand_ins = dict.fromkeys(parameters, _reached)
    try:
        inspect.signature(tests).bind(**stand_ins)
    except (TypeError, ValueError):
        count = {1: "one parameter", 2: "two parameters"}.get(len(parameters),
                                                              f"{len(parameters)} parameters")
        raise CheckFailed(f"{_name(tests)} must take {count}, {' and '.join(parameters)}: "
                          f"def {_name(tests)}({', '.join(parameters)}):") from None
    try:
        tests(**stand_ins)
    except NotImplementedError:
        raise
    except (_Reached, Exception):  # noqa: BLE001  written: what it catches is graded later
        return


__all__ = ["Version", "version", "try_my_tests", "grade_my_tests", "check_written"]
