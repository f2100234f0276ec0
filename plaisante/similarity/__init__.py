"""Which students' code is suspiciously alike (``plaisante similarity ID``, docs/similarity.md):
the comparison (``compare``) and its page and terminal table (``page``).
"""
