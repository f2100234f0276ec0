"""Every HTML page the kit writes itself: the class report, the similarity page, the lab board,
the LTI picker and landing pages, the feedback page of a submission nbgrader could not make one
of. Each is a Jinja template in ``plaisante/templates/pages/``, rendered by ``render`` in the one
environment here, autoescape on: Python hands the templates data, never markup.

How a value reaches a page is decided in one place, ``shown`` (the environment's ``finalize``,
so no template can forget it): every string a template prints has each control or
text-direction character (``HIDDEN_CONTROL``) replaced by a visible U+FFFD, then ``&``, ``<``,
``>`` and both quotes written as entities, so a student's text (their code, a cell id, a
file name the grader quotes, their roster name) never forms a tag or breaks out of a quoted
attribute, and what is shown is what runs. Only ``Markup`` passes as it is: what a template
or macro of this environment made, and the kit's own stylesheet.

The notebooks nbgrader renders (feedback, the formgrader) are nbconvert's templates, made inert
by ``plaisante.inert`` before they render.
"""

from __future__ import annotations

import html
import re
from functools import cache
from typing import Any

import jinja2
from markupsafe import Markup

from .boundary import NAME

#: What a student's text may not bring into a page as it is: C0 and C1 control characters but
#: the newline and the tab, and the bidirectional controls that make code read otherwise than
#: it runs ("Trojan Source").
HIDDEN_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                            "\u2066-\u2069]")


def shown(value: Any) -> Any:
    """Return ``value`` as a page shows it (module doc): a string as inert HTML text, each
    hidden control as U+FFFD; ``Markup`` and non-strings (numbers: Jinja escapes their text)
    as they are.

    >>> str(shown('<img src=x onerror="f()"> \u202e'))
    '&lt;img src=x onerror=&quot;f()&quot;&gt; \ufffd'
    """
    if isinstance(value, Markup) or not isinstance(value, str):
        return value
    return Markup(html.escape(HIDDEN_CONTROL.sub("\ufffd", value), quote=True))


@cache
def environment() -> jinja2.Environment:
    """The environment every page of the kit renders in (module doc); its global
    ``kit_style`` is the kit's stylesheet (``student_side.style.STYLE``)."""
    from .student_side.style import STYLE

    env = jinja2.Environment(
        loader=jinja2.PackageLoader(NAME, "templates/pages"), autoescape=True,
        finalize=shown, undefined=jinja2.StrictUndefined, trim_blocks=True,
        lstrip_blocks=True, keep_trailing_newline=True)
    env.globals["kit_style"] = Markup(STYLE)
    return env


def render(template: str, **context: Any) -> str:
    """Return ``plaisante/templates/pages/<template>`` rendered with ``context``. Raises
    jinja2's ``UndefinedError`` when the template reads a name ``context`` lacks."""
    return environment().get_template(template).render(**context)
