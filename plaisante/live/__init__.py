"""The class, live: ``watch`` grades each submission of a shared server's exchange as it arrives
and releases its feedback; ``board`` is the lab board it keeps up to date; ``demo`` is the
lecture-hall presenter view (``plaisante demo``), on the reference or a student's functions.
"""
