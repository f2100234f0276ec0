"""nbgrader's formgrader on the course (``plaisante formgrader``): ``server`` starts JupyterLab on
it with the kit's Jupyter server extensions, each loaded by its dotted name:
``sandboxed_autograde`` (the Autograde button grades in the sandbox, never in the server),
``pages`` (a submission with no notebook gets its page) and ``policy`` (a Content Security
Policy on every formgrader page, and the script it serves from ``static/``).
"""
