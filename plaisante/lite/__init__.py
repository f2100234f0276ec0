"""The course as a static JupyterLite site: students run every starter in the browser alone.

``student_wheel`` packs the part of the kit a student's notebook imports (setup cells, checks,
games, views) into a wheel; ``assets`` fetches, once and with the network, what the site serves
instead of a CDN (Pyodide's core from npm, pure-Python wheels from PyPI); ``site`` builds the
site from them with no network (``plaisante lite``).
"""
