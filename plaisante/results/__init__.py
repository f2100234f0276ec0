"""What the instructor reads back once work is graded, all from nbgrader's gradebook: scores per
step (``scores``), lateness by one rule (``lateness``), the terminal tables (``tables``), the
grade book's CSV (``export``), the class report's page (``class_report``) and the roster's
names (``roster``).
"""
