"""The student's side: what runs in the student's kernel and goes into the JupyterLite wheel, with
``plaisante.kernel`` (the graded kernel's own half) and the games (``plaisante.games``, but for
each game's ``known_good``).

Nothing here imports anything of the kit outside the kernel's side (``plaisante.boundary``
says which folders that is; ``tests/test_kernel_boundary.py`` checks it): the cards and their
notation, hand names, what checks are made of and how a failing one reads, an assignment's
steps and gate, the card widgets and the stylesheets, the presenter views, students' own tests,
and the wire format both sides speak.
"""
