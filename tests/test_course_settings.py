"""``CourseLayout`` reads the course's nbgrader config (traitlets' loader, nbgrader's
``CourseDirectory``): its folders and its gradebook URL, the kit's own where it says nothing;
and a gradebook that cannot be reached is said in one line naming it, password hidden."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from plaisante.course import (
    DEFAULT_DB_URL,
    CourseLayout,
    GradebookUnreachable,
    course_settings,
    shown_url,
)

KIT = Path(__file__).resolve().parents[1]


def test_the_kits_config_names_the_kits_folders_and_its_gradebook_file() -> None:
    layout = CourseLayout(KIT)
    assert layout.release("deck") == KIT / "starter" / "deck" / "deck.ipynb"
    assert layout.source("deck") == KIT / "solutions" / "deck" / "deck.ipynb"
    assert layout.submitted("ada", "deck") == KIT / "assignments/submitted/ada/deck/deck.ipynb"
    assert layout.gradebook_url == DEFAULT_DB_URL.format(root=KIT)
    assert layout.gradebook_file == KIT / "assignments" / "gradebook.db"
    assert layout.course_id == "plaisante-kit"


def test_a_config_that_moves_the_folders_and_the_gradebook_is_followed(tmp_path: Path) -> None:
    (tmp_path / "nbgrader_config.py").write_text(
        "c = get_config()\n"
        "c.CourseDirectory.source_directory = 'src'\n"
        "c.CourseDirectory.release_directory = 'out/release'\n"
        "c.CourseDirectory.submitted_directory = '/srv/inbox'\n"
        "c.CourseDirectory.autograded_directory = 'graded'\n"
        "c.CourseDirectory.feedback_directory = 'fb'\n"
        "c.CourseDirectory.db_url = 'postgresql+psycopg://ta:s3cret@db.example.org/course'\n")
    layout = CourseLayout(tmp_path)
    assert layout.source("deck") == tmp_path / "src" / "deck" / "deck.ipynb"
    assert layout.release("deck") == tmp_path / "out" / "release" / "deck" / "deck.ipynb"
    assert layout.submitted("ada", "deck") == Path("/srv/inbox/ada/deck/deck.ipynb")
    assert layout.autograded("ada", "deck") == tmp_path / "graded" / "ada" / "deck" / "deck.ipynb"
    assert layout.feedback("ada", "deck") == tmp_path / "fb" / "ada" / "deck" / "deck.html"
    assert layout.gradebook_url == "postgresql+psycopg://ta:s3cret@db.example.org/course"
    assert layout.gradebook_file is None and not layout.gradebook_missing()
    assert layout.course_id == "default_course"  # nbgrader's Gradebook default
    assert shown_url(layout.gradebook_url) == "postgresql+psycopg://ta:***@db.example.org/course"


def test_a_course_without_a_config_has_the_kits_layout(tmp_path: Path) -> None:
    settings = course_settings(tmp_path)
    assert (settings.source_directory, settings.submitted_directory) == (
        "solutions", "assignments/submitted")
    layout = CourseLayout(tmp_path)
    assert layout.gradebook_file == tmp_path.resolve() / "assignments" / "gradebook.db"
    assert layout.gradebook_missing()


def unreachable(course: Path, url: str) -> str:
    """The message of the GradebookUnreachable that opening ``course``'s gradebook at ``url``
    (a server that does not answer) raises."""
    (course / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.db_url = {url!r}\n")
    with pytest.raises(GradebookUnreachable) as raised:
        with CourseLayout(course).open_gradebook():
            pass
    return str(raised.value)


def test_a_gradebook_server_that_refuses_the_connection_is_named_in_one_line(
        tmp_path: Path) -> None:
    with socket.socket() as probe:  # a loopback port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    message = unreachable(tmp_path, f"postgresql+psycopg://ta:s3cret@127.0.0.1:{port}/course")
    assert "\n" not in message and "s3cret" not in message
    assert message.startswith(
        f"the course gradebook postgresql+psycopg://ta:***@127.0.0.1:{port}/course "
        "(c.CourseDirectory.db_url in nbgrader_config.py) cannot be used: ")
    assert "refused" in message.lower()
    assert message.endswith("start the database or fix the URL, then run the command again "
                            "(what was recorded before stays)")


@pytest.mark.parametrize(("url", "said"), [
    ("nosuchdb://somewhere/course", "is not a database URL SQLAlchemy knows"),
    ("not a url", "is not a database URL SQLAlchemy knows"),
    ("mysql+mysqldb://ta@db.example.org/course", "needs the database driver 'MySQLdb'"),
])
def test_a_gradebook_url_nothing_can_open_is_refused_in_one_line(
        tmp_path: Path, url: str, said: str) -> None:
    (tmp_path / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.db_url = {url!r}\n")
    with pytest.raises(ValueError, match=said) as raised:
        with CourseLayout(tmp_path).open_gradebook():
            pass
    assert "\n" not in str(raised.value)


@pytest.mark.parametrize(("url", "shown"), [
    ("postgresql+psycopg://ta:s3cret@db/course", "postgresql+psycopg://ta:***@db/course"),
    # an unescaped '@' in the password: SQLAlchemy reads its tail as the host's start
    ("postgresql+psycopg://ta:s3c@ret@db:5432/course", "postgresql+psycopg://ta:***@db:5432/course"),
    ("postgresql+psycopg://ta:s3c/ret@db/course", "postgresql+psycopg://ta:***@db/course"),
    ("postgresql+psycopg://ta@db/course?sslmode=require&password=s3cret",
     "postgresql+psycopg://ta@db/course?password=%2A%2A%2A&sslmode=require"),
    ("postgresql+psycopg://ta@db/course?PWD=s3cret&passwd=s3cret",
     "postgresql+psycopg://ta@db/course?PWD=%2A%2A%2A&passwd=%2A%2A%2A"),
    # not read by SQLAlchemy: the scheme at most, when it is a plain word
    ("postgresql+psycopg://ta:s3cret@db:port/course", "postgresql+psycopg://…"),
    ("postgresql+psycopg//ta:s3cret@db/course", "(the URL in nbgrader_config.py)"),
    ("ta:s3cret@db", "(the URL in nbgrader_config.py)"),
])
def test_a_gradebook_url_is_shown_with_nothing_that_could_be_its_password(
        url: str, shown: str) -> None:
    assert shown_url(url) == shown


def test_a_drivers_message_about_a_host_holding_the_passwords_tail_is_scrubbed(
        tmp_path: Path) -> None:
    # SQLAlchemy reads the host as 'ret@127.0.0.1'
    message = unreachable(tmp_path, "postgresql+psycopg://ta:s3c@ret@127.0.0.1:1/course")
    assert "s3c" not in message and "ret@" not in message, message
    assert "'***@127.0.0.1'" in message  # psycopg names the host it could not resolve


def test_a_postgresql_server_asking_for_a_password_points_to_pgpass_not_the_url() -> None:
    from plaisante.course import unreachable

    said = unreachable("postgresql+psycopg://ta@db.example.org/course",
                       Exception('connection failed: connection to server at "10.0.0.5", port '
                                 '5432 failed: fe_sendauth: no password supplied'))
    assert "fe_sendauth: no password supplied" in said and "\n" not in said
    assert "give the password in ~/.pgpass (host:port:database:user:password, mode 600) or " \
           "the PGPASSWORD variable, not in the URL, then run the command again" in said
    other = unreachable("sqlite:///gradebook.db", Exception("password authentication failed"))
    assert "start the database or fix the URL" in other
