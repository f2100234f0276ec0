"""Everything that runs inside the untrusted process: the student's kernel (or the demo's plain
process), never the grader.

Nothing here is believed. A student's code runs in the same interpreter and may rewrite any of
it; what these modules can do is answer the grader's questions with data, which the grader
checks (``plaisante.student_side.wire``). So this package imports nothing trusted: not
``plaisante.grading``, not nbgrader (``tests/test_kernel_boundary.py`` checks every module here
and every module of the kit it imports).

* ``oracle`` — the judge's requests answered with the student's parts (``serve``, ``respond``);
* ``channel`` — the bare frames on the kernel's stdin socket that carry both conversations;
* ``routed`` — a student's own tests run here, their calls of the parts asked of the grader;
* ``zygote`` — the pre-imported process that forks one isolated kernel per submission;
* ``syscall_filter`` — the seccomp filter every sandboxed kernel loads before any student code;
* ``data_files`` — the submission's data files copied in as a kernel starts;
* ``live`` — the demo's plain process answering the judge from a student's cells.
"""
