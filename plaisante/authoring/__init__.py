"""Writing an assignment: its reference solution, loaded from the instructor's source notebook
(``reference``), its classic mistakes written once (``mistakes``, listed in
``assignments/samples/<id>/mistakes.py``) and the sample submissions and expected scores made
from them (``samples``).
"""
