"""Handing in, one room: a student's notebook or folder, or a class's folder or LMS download, into
the course's ``assignments/submitted/`` (``plaisante submit``), and the student's check before
handing in (``plaisante validate``, and nbgrader's Validate made to say what it ran).

* ``hand_in``: what ``plaisante submit`` does with a notebook, a folder or a download;
* ``downloads``: a class's folder or zip read: each LMS's names, attempts, the newest kept;
* ``submitted``: the copy into ``assignments/submitted/`` (and ``replaced/``), ids checked;
* ``validate``, ``nbgrader_validate``: the check before handing in.

Reading what was handed in, for grading, is the grader's (``plaisante.grading.handed_in``).
"""
