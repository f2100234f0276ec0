"""Moved: ``plaisante.nbgrader_validate`` is now ``plaisante.intake.nbgrader_validate``. This name
stays for one release, for files outside the kit that still name it (a course's
nbgrader_config.py, an instructor's notebook); it goes in the next release.
"""

from .intake.nbgrader_validate import install  # noqa: F401
