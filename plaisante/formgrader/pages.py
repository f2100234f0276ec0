"""nbgrader's formgrader page for a submission with no autograded notebook, made to render: a
Jupyter server extension that ``plaisante formgrader`` loads.

nbgrader 0.9.6 answers ``/formgrader/submissions/ID/`` with its ``formgrade_404.tpl`` when the
submission has no autograded notebook (a flagged submission that was not a readable notebook),
but that template imports ``formgrade_macros.tpl``, which nbgrader ships as
``formgrade/formgrade_macros.html.j2``: the page is a 500 (``TemplateNotFound``). The formgrader's
Jinja environment is given that name for the macros it means, so the instructor sees nbgrader's
own "Submission notebook file not found" page, answered 404.
"""

from __future__ import annotations

from typing import Any

from jinja2 import BaseLoader, ChoiceLoader, DictLoader, Environment

#: The name nbgrader's 404 template imports, and where nbgrader keeps those macros.
MISSING_MACROS = "formgrade_macros.tpl"
MACROS = "formgrade/formgrade_macros.html.j2"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "plaisante.formgrader.pages"}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Give the formgrader's Jinja environment the macros its 404 page imports (extensions
    load in alphabetical order: nbgrader's formgrader, which makes that environment, first)."""
    env = serverapp.web_app.settings.get("nbgrader_jinja2_env")
    if env is None:
        serverapp.log.warning("plaisante: no formgrader loaded; its 404 page is left as it is")
        return
    with_macros(env)
    serverapp.log.info("plaisante: the formgrader's page of a submission with no notebook renders")


def with_macros(env: Environment) -> Environment:
    """Make ``env`` (nbgrader's formgrader environment) find ``MISSING_MACROS``; return it.
    Raises jinja2.TemplateNotFound when ``env`` does not hold ``MACROS`` either."""
    loader = env.loader
    assert isinstance(loader, BaseLoader), "nbgrader's formgrader environment has a loader"
    source, _, _ = loader.get_source(env, MACROS)
    env.loader = ChoiceLoader([loader, DictLoader({MISSING_MACROS: source})])
    return env
