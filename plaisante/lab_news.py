"""No "Jupyter news" in the kit's JupyterLab: the demo's and the formgrader's (a Jupyter server
extension).

JupyterLab's announcements plugin asks, in a pop-up on first open, whether to fetch news from
the internet; it covered the checklist a student or a lecturer came to see, and the formgrader's
page, and a course's server has no business fetching news. ``--LabApp.news_url=None`` alone
still shows the question (the plugin asks before it fetches), so this extension lists the plugin
among the page's disabled extensions, the way ``jupyter labextension disable`` would, without
writing the instructor's settings.
"""

from __future__ import annotations

from typing import Any

#: JupyterLab's plugin that asks about news and checks for updates.
ANNOUNCEMENTS = "@jupyterlab/apputils-extension:announcements"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": "plaisante.lab_news"}]


def without_news(page_config: dict[str, Any]) -> dict[str, Any]:
    """Return ``page_config`` (JupyterLab's page configuration, changed in place) with the
    announcements plugin among its ``disabledExtensions``."""
    disabled = list(page_config.get("disabledExtensions") or [])
    if ANNOUNCEMENTS not in disabled:
        disabled.append(ANNOUNCEMENTS)
    page_config["disabledExtensions"] = disabled
    return page_config


def _load_jupyter_server_extension(serverapp: Any) -> None:
    """Chain a page-config hook that disables the announcements plugin on every lab page."""
    settings = serverapp.web_app.settings
    earlier = settings.get("page_config_hook")

    def hook(handler: Any, page_config: dict[str, Any]) -> dict[str, Any]:
        if earlier is not None:
            page_config = earlier(handler, page_config)
        return without_news(page_config)

    settings["page_config_hook"] = hook
