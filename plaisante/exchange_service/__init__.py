"""nbgrader's exchange as a JupyterHub service: a course on a hub whose users' servers share
no folder and may all run as one Unix user (Zero to JupyterHub: ``jovyan`` in a pod each).

* ``service``: the service (tornado, ``jupyterhub.services.auth.HubOAuthenticated``). It keeps
  releases, submissions, feedback and the lab board in its own store (``store``: a folder
  only the service's account can read). Who calls is whom the hub says the token or the OAuth
  cookie belongs to; what they may do comes from the hub's scopes (``SCOPE_GRADE``,
  ``SCOPE_RELEASE``), which the hub's roles grant (``instructor``, ``grader``).
* ``plugin``: nbgrader's exchange classes (``c.ExchangeFactory.*``) that talk to it with the
  caller's own hub token (``$JUPYTERHUB_API_TOKEN``, which every user's server has).
* ``client``: the HTTP calls both the plugin and ``plaisante watch`` make.
* ``source``: where ``plaisante watch`` takes submissions from and publishes its board to,
  when the course's exchange is this service.

What each side may do:

==================================  ========================  =========================
call                                who                       scope needed
==================================  ========================  =========================
list / fetch a released assignment  any hub user with access  ``access:services``
submit                              the calling user, as self ``access:services``
list own submissions, fetch own     the calling user          ``access:services``
feedback
list everyone's submissions,        instructors, graders      ``SCOPE_GRADE``
collect, release feedback, board
release / remove an assignment      instructors               ``SCOPE_RELEASE``
==================================  ========================  =========================
"""

from __future__ import annotations

#: The service's name in the hub's ``c.JupyterHub.services`` (its URL: ``/services/NAME/``).
SERVICE_NAME = "plaisante-exchange"
#: The hub scope that lets a user (or a token) collect, release feedback and see the board.
SCOPE_GRADE = f"custom:{SERVICE_NAME}:grade"
#: The hub scope that lets a user release and remove assignments.
SCOPE_RELEASE = f"custom:{SERVICE_NAME}:release"
