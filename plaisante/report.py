"""Moved: ``plaisante.report`` is now ``plaisante.results.class_report``. This name stays for one
release, for files outside the kit that still name it (a course's nbgrader_config.py, an
instructor's notebook); it goes in the next release.
"""

from .results.class_report import show  # noqa: F401
