"""What every game's lecture-hall presenter view shares (``plaisante demo ID``): a seed box and
Deal, a notation box that deals exactly the cards written, the stage the game draws its cards
on, the x-ray panel beside them and a message line; and the presenter-sized checklist shown
instead while a student's step fails. Views render and forward clicks: each game's
``presenter.py`` subclasses ``Presenter`` and asks its pure ``xray.py`` for every number.

Sizes are read from the window on both axes (``presenting.css``): at 1920×1080 the table fills
the screen, its text at least 32 px and its cards 273 × 382 px; at 1280×720 the same view,
scaled (cards 182 × 254 px), fits without scrolling. A row of more cards than fit whole
(``plaisante-hall-fan``) fans out, each card's corner shown. Each click is read aloud too: the
message line and the x-ray's verdict (``said_classes``) in a polite live region.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any

import ipywidgets as widgets

from .card_widgets import LiveRegion, card_button, card_label, restyle, spoken
from .markup import Child, html, tag
from .style import CSS, SELECTED, game_css, mark_css
from .wire import described

#: The first deal's seed when none is given (``plaisante demo --help`` says so).
FIRST_SEED = 2026


@lru_cache(maxsize=None)
def shared_css() -> str:
    """Return the presenter views' shared CSS (``plaisante/student_side/presenting.css``)."""
    return (resources.files(__package__) / "presenting.css").read_text(encoding="utf-8")


@lru_cache(maxsize=None)
def presenter_css(game: str) -> str:
    """Return the presenter views' shared CSS followed by ``game``'s own
    (``plaisante/games/<game>/presenter.css``). Raises ValueError naming a missing file."""
    shared = shared_css()
    sheet = resources.files("plaisante.games") / game / "presenter.css"
    if not sheet.is_file():
        raise ValueError(f"game {game!r} has no presenter stylesheet: "
                         f"plaisante/games/{game}/presenter.css is missing")
    return shared + sheet.read_text(encoding="utf-8")


def presenter_style(game: str, marks: tuple[str, ...] = ()) -> str:
    """Return the ``<style>`` a presenter view of ``game`` puts first: the game's table
    (``style.game_style``'s sheets, its raised cards' ✓ read as each of ``marks``), then the
    presenter sheets (``presenter_css``)."""
    return html(tag("style", CSS + game_css(game) + mark_css(marks) + presenter_css(game)))


class Presenter(widgets.VBox):
    """The frame of a game's presenter view; a subclass sets ``game`` (its folder name),
    ``hint`` (the notation box's example) and implements ``deal_seed(seed)``,
    ``deal_notation(text)`` and ``render()``.

    Stable classes for tests: ``plaisante-presenter`` (the view) plus ``<game>-presenter``,
    ``plaisante-seed``, ``plaisante-notation``, ``plaisante-stage`` (the cards),
    ``plaisante-xray-panel`` (what the x-ray says, an HTML section labelled '<game> x-ray'),
    ``plaisante-message`` (the last action's line)."""

    game = ""
    hint = ""
    notation_tip = "Deal exactly the cards written here"
    #: the x-ray's lines (CSS classes of its ``div``s) read aloud after each click
    said_classes: tuple[str, ...] = ("plaisante-hall-big",)
    #: what a raised card's ✓ means, the words its tooltip and its read-aloud mark say
    #: (``mark``'s ``said``), the first when ``mark`` is told none: the game's own view's
    #: word for the same state
    mark_words: tuple[str, ...] = (SELECTED,)

    def __init__(self, parts: dict[str, Any], seed: int = FIRST_SEED) -> None:
        super().__init__()
        self.parts = parts
        self.add_class("plaisante-table").add_class("plaisante-presenter")
        self.add_class(f"{self.game.replace('_', '-')}-presenter")
        self.seed_box = widgets.IntText(value=seed, description="Seed")
        self.seed_box.add_class("plaisante-seed")
        deal = widgets.Button(description="Deal", icon="refresh",
                              tooltip="Deal from this seed: the same seed, the same cards")
        self.notation = widgets.Text(placeholder=self.hint, description="Cards")
        self.notation.add_class("plaisante-notation")
        self.notation.continuous_update = False
        dealt = widgets.Button(description="Deal these", tooltip=self.notation_tip)
        deal.on_click(lambda _: self.guarded(self.deal_seed, self.seed_box.value))
        dealt.on_click(lambda _: self.guarded(self._notation, self.notation.value))
        self.notation.observe(lambda change: self.guarded(self._notation, change["new"]),
                              "value")
        self.controls = widgets.HBox([self.seed_box, deal, self.notation, dealt])
        self.controls.add_class("plaisante-presenter-controls")
        self.stage = widgets.VBox().add_class("plaisante-stage")
        self.xray_panel = widgets.HTML().add_class("plaisante-xray-panel")
        self.message = widgets.HTML().add_class("plaisante-message")
        self.live = LiveRegion()
        style = widgets.HTML(presenter_style(self.game, self.mark_words))
        self.children = [style, self.controls, *self.extra_controls(), self.stage,
                         self.xray_panel, self.message, self.live]
        self.guarded(self.deal_seed, seed)

    # ------------------------------------------------------------------ for a subclass
    def extra_controls(self) -> list[widgets.Widget]:
        """Widgets drawn under the deal controls (none by default)."""
        return []

    def deal_seed(self, seed: int) -> None:  # pragma: no cover - every game has its own
        raise NotImplementedError

    def deal_notation(self, text: str) -> None:  # pragma: no cover
        raise NotImplementedError

    def render(self) -> None:  # pragma: no cover
        raise NotImplementedError

    # ------------------------------------------------------------------ shared helpers
    def _notation(self, text: str) -> None:
        if text.strip():
            self.deal_notation(text)

    def guarded(self, action: Any, *args: Any) -> None:
        """Run a click's ``action``; whatever stops it (bad notation, the student's parts, or
        their process gone) is said in the message line: ipywidgets would swallow it."""
        try:
            action(*args)
        except (KeyboardInterrupt, SystemExit):
            raise
        except ValueError as error:  # bad notation, or a rule: the message says what is allowed
            self.say(f"⚠ {described(error, named=False)}")
        except BaseException as error:  # noqa: B036  the student's code, or its process
            self.say(f"⚠ {described(error)}")
        self.live.say(said_after(self.message.value,
                                 xray_words(self.xray_panel.value, self.said_classes)))

    def say(self, text: str) -> None:
        """Show ``text`` (escaped) in the message line."""
        self.message.value = html(text)

    def card_row(self, cards: list[Any], on_click: Any, css: str = "") -> widgets.HBox:
        """Return a row of card buttons for ``cards``; a click calls ``on_click(index)``
        (guarded). Each button carries ``data-index`` order through its position."""
        buttons = []
        for index, card in enumerate(cards):
            button = card_button(card)
            button.on_click(lambda _, index=index: self.guarded(on_click, index))
            buttons.append(button)
        row = widgets.HBox(buttons).add_class("plaisante-row").add_class("plaisante-hall-row")
        if css:
            row.add_class(css)
        return row

    def mark(self, row: widgets.HBox, cards: list[Any], lit: set[int], css: str = "",
             said: str | None = None) -> None:
        """Redraw ``row``'s buttons as ``cards`` (the same buttons, no new widgets): position i
        raised (gold, a ✓ read as ``said``, its tooltip ending so) when i is in ``lit``; ``css``
        added to the lit ones and taken from the others. ``said``: one of ``mark_words``, the
        first when None; another raises ValueError (the page has no CSS to read it)."""
        said = self.mark_words[0] if said is None else said
        if said not in self.mark_words:
            raise ValueError(f"{type(self).__name__} marks cards as {self.mark_words}, "
                             f"not {said!r}")
        for index, (card, button) in enumerate(zip(cards, row.children)):
            button.description = card_label(card)
            restyle(button, card, index in lit, False, said)
            if css and index in lit:
                button.add_class(css)
            elif css and css in button._dom_classes:
                button.remove_class(css)

    @staticmethod
    def dim(row: widgets.HBox, keep: set[int] | None) -> None:
        """Dim every button of ``row`` whose position is not in ``keep`` (None: dim none)."""
        for index, button in enumerate(row.children):
            if keep is not None and index not in keep:
                button.add_class("plaisante-dim")
            elif "plaisante-dim" in button._dom_classes:
                button.remove_class("plaisante-dim")


def said_after(message: str, xray: str) -> str:
    """Return what a click says: its ``message`` line then the x-ray's lines, either may be
    empty."""
    message = spoken(message)
    return f"{message}. {xray}" if message and xray else message or xray


def xray_words(xray: str, classes: tuple[str, ...]) -> str:
    """Return the x-ray's lines read aloud: the text of every ``div`` of ``xray`` (HTML) with
    one of ``classes``, in order, each ended by a full stop.

    >>> xray_words('<div class="a x">7 <b>wins</b></div><div class="b">no</div>', ("x",))
    '7 wins.'
    """
    wanted = "|".join(re.escape(css) for css in classes)
    found = re.findall(rf'<div class="(?:[^"]* )?(?:{wanted})(?: [^"]*)?"[^>]*>(.*?)</div>',
                       xray, re.S)
    return " ".join(f"{spoken(line)}." for line in found if spoken(line))


def section(game: str, title: str, *body: Child) -> str:
    """Return the x-ray's HTML: ``body`` (``markup.Child``) in a section labelled ``title``
    for screen readers and tests."""
    return html(tag("section", body, aria_label=title,
                    class_=["plaisante-xray", "plaisante-hall-xray", f"{game}-xray"]))


# -------------------------------------------------------------- a failing student's checklist

_CASE = re.compile(r"(?P<input>.*?): expected (?P<expected>.*), got (?P<got>.*)", re.S)


def split_case(detail: str) -> tuple[str, str, str] | None:
    """Split a check's failure line ``'<input>: expected <e>, got <g>'`` into its three parts;
    None when it does not read that way (a raise, a missing part…)."""
    found = _CASE.fullmatch(detail.strip())
    if not found:
        return None
    return found["input"].strip(), found["expected"].strip(), found["got"].strip()


def presenter_checklist_html(results: list[Any], title: str) -> str:
    """Return the checklist of a failing submission, sized for a projector: the first step that
    needs work, the input it was given, what was expected and what came back, each on its own
    line, then every step's mark (✔ ✎ ✘, hidden from screen readers, and a word). ``results``:
    StepResults (``plaisante.student_side.assignment.check_all``), at least one not passing.
    Every text is escaped."""
    # "todo" is a part still raising NotImplementedError or one not defined (its cell failed:
    # a SyntaxError, say), so not "not written yet": the detail row says which
    marks = {"pass": ("✔", "passes"), "todo": ("✎", "not finished"), "fail": ("✘", "fails")}
    first = next(result for result in results if result.status != "pass")
    case = split_case(first.detail) if first.status == "fail" else None
    if case:
        rows = [("The input", case[0]), ("Expected", case[1]), ("Got", case[2])]
    else:
        rows = [("What happened", first.detail or "this step is not finished")]
    steps = (tag("li", tag("b", marks[result.status][0], aria_hidden="true"),
                 f" Step {result.step}: {result.title} — {marks[result.status][1]}",
                 class_=[f"plaisante-step-{result.status}",
                         "plaisante-step-first" if result is first else None])
             for result in results)
    return html(
        tag("style", shared_css()),
        tag("section",
            tag("h2", f"{title} cannot start: step {first.step} ({first.title}) "
                      f"{marks[first.status][1]}"),
            tag("div", (tag("div", tag("span", name), tag("code", text),
                            class_="plaisante-case-row") for name, text in rows),
                class_="plaisante-case"),
            tag("ol", steps, class_="plaisante-hall-steps"),
            class_="plaisante-hall-checklist", aria_label="what fails"))


def presenter_checklist(results: list[Any], title: str) -> Any:
    """Return ``presenter_checklist_html`` as a widget (the demo's page shows it)."""
    view = widgets.HTML(presenter_checklist_html(results, title))
    view.add_class("plaisante-hall-checklist-widget")
    return view


__all__ = ["FIRST_SEED", "Presenter", "presenter_checklist", "presenter_checklist_html",
           "presenter_css", "presenter_style", "section", "split_case"]
