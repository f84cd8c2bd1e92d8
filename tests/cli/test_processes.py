"""No process outlives its command, and Ctrl-C ends every one of them quietly: worker pools
whose parent is killed (``kill -9``), Ctrl-C while the workers run and while the command
starts, read from the process table."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import pytest

from phase10math._base.workers import WorkerPool, result_of

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

ROOT = Path(__file__).resolve().parents[2]


def _stat(pid: str) -> tuple[int, int, str] | None:
    """(parent pid, session id, state) of a process, from /proc."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), int(fields[3]), fields[0]


def in_session(sid: int) -> list[int]:
    """The live (not zombie) processes of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(entry)) and st[1] == sid and st[2] != "Z":
            found.append(int(entry))
    return found


def children(pid: int) -> list[int]:
    return [int(e) for e in os.listdir("/proc") if e.isdigit() and (_stat(e) or (0,))[0] == pid]


def wait_for(condition, timeout: float, step: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if value := condition():
            return value
        time.sleep(step)
    return condition()


def as_from_a_terminal() -> None:
    """In the child, before the command starts: Ctrl-C handled by default, as in a terminal's
    foreground command (a runner that starts the suite as a background job has SIGINT
    ignored, and a child would inherit that)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start(args: list[str], tmp_path: Path) -> subprocess.Popen:
    """``python -m phase10math ARGS`` in a session of its own, with an empty cache."""
    env = {**os.environ, "PHASE10MATH_CACHE_DIR": str(tmp_path / "cache")}
    return launch([sys.executable, "-m", "phase10math", *args], env)


def launch(cmd: list[str], env: dict[str, str] | None = None) -> subprocess.Popen:
    """``cmd`` with this checkout first on the path, in a session of its own, handling Ctrl-C
    as from a terminal, its output read as text."""
    env = dict(os.environ if env is None else env)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
        preexec_fn=as_from_a_terminal,
    )


def workers_running(proc: subprocess.Popen, n: int = 2) -> bool:
    """Whether the command has ``n`` worker processes (besides multiprocessing's tracker)."""
    mine = []
    for pid in children(proc.pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in cmd:
            mine.append(pid)
    return len(mine) >= n


TABLE = ["table", "--layout", "compact", "--phases", "6-10"]  # two workers, tens of seconds


@contextmanager
def table_run(tmp_path):
    """The table command started (:data:`TABLE`); whatever of its session is left is killed."""
    proc = start(TABLE, tmp_path)
    try:
        yield proc
    finally:
        for pid in in_session(proc.pid):
            os.kill(pid, signal.SIGKILL)


def interrupt(proc: subprocess.Popen) -> None:
    """Ctrl-C as the terminal sends it (to every process of the group): one line, exit 130,
    nothing left of the session."""
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=20)
    assert (proc.returncode, err, out) == (130, "phase10math: interrupted\n", "")
    assert wait_for(lambda: not in_session(proc.pid), 10) is True


def test_workers_end_with_a_parent_killed_by_sigkill(tmp_path):
    with table_run(tmp_path) as proc:
        assert wait_for(lambda: workers_running(proc), 30), proc.stderr
        time.sleep(1.5)  # the workers are solving
        os.kill(proc.pid, signal.SIGKILL)
        out, err = proc.communicate(timeout=10)  # nobody holds the pipes open
        assert proc.returncode == -signal.SIGKILL
        assert wait_for(lambda: not in_session(proc.pid), 10) is True, in_session(proc.pid)


def test_ctrl_c_with_workers_running_is_one_line_and_exit_130(tmp_path):
    with table_run(tmp_path) as proc:
        assert wait_for(lambda: workers_running(proc), 30)
        time.sleep(1.5)
        interrupt(proc)


@pytest.mark.parametrize("delay", [0.15, 0.4, 0.9])
def test_ctrl_c_while_the_command_starts_is_one_line_and_exit_130(tmp_path, delay):
    with table_run(tmp_path) as proc:
        time.sleep(delay)
        interrupt(proc)


def test_ctrl_c_while_the_workers_start_is_one_line_and_exit_130(tmp_path):
    with table_run(tmp_path) as proc:
        assert wait_for(lambda: workers_running(proc, 1), 30, step=0.01)
        interrupt(proc)  # a worker is still importing


# --------------------------------------------------------------------------- the pool itself

SHARED = None


def test_a_result_waited_for_in_slices_keeps_its_meaning():
    """``result_of``: the task's value, the task's own TimeoutError at once, the caller's
    timeout when the task runs on."""
    never = Future()  # never finished
    with pytest.raises(TimeoutError):
        result_of(never, timeout=0.6)
    failed = Future()
    failed.set_exception(TimeoutError("the task's own"))
    with pytest.raises(TimeoutError, match="the task's own"):
        result_of(failed)
    done = Future()
    done.set_result(42)
    assert result_of(done) == 42


def _read_shared(i: int) -> int:
    return SHARED * i


def test_a_forked_pool_reads_what_the_parent_prepared():
    global SHARED
    SHARED = 7
    with WorkerPool(2, "fork") as pool:
        assert list(pool.map(_read_shared, range(4))) == [0, 7, 14, 21]


@pytest.mark.parametrize("method", ["spawn", "fork"])
def test_a_pool_whose_parent_is_killed_leaves_no_process(tmp_path, method):
    script = textwrap.dedent(
        f"""
        import sys, time
        from phase10math._base.workers import WorkerPool, result_of

        def task(i):
            time.sleep(600)

        if __name__ == "__main__":
            pool = WorkerPool(2, {method!r})
            for i in range(2):
                pool.submit(task, i)
            print("started", flush=True)
            time.sleep(600)
        """
    )
    path = tmp_path / "pool.py"
    path.write_text(script)
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    proc = subprocess.Popen(
        [sys.executable, str(path)], stdout=subprocess.PIPE, env=env, start_new_session=True
    )
    try:
        assert proc.stdout.readline() == b"started\n"
        assert wait_for(lambda: len(in_session(proc.pid)) >= 3, 30)  # parent and two workers
        time.sleep(1)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        assert wait_for(lambda: not in_session(proc.pid), 10) is True, in_session(proc.pid)
    finally:
        for pid in in_session(proc.pid):
            os.kill(pid, signal.SIGKILL)


def test_ctrl_c_that_ends_an_exec_of_source_text_still_exits_130(tmp_path):
    """A Ctrl-C that lands in an ``exec`` of source text (``dataclasses`` builds methods so
    while a command imports its modules), the command run as ``python -m``: the one line and
    code 130, not death by SIGINT, which is how CPython ends a module run whose exec was
    interrupted unless told otherwise."""
    (tmp_path / "interrupted_cli.py").write_text(
        textwrap.dedent(
            """
            import sys
            from phase10math import cli

            def interrupted_import():
                exec("raise KeyboardInterrupt")

            cli.build_parser = interrupted_import
            sys.exit(cli.main(["table"]))
            """
        )
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    proc = subprocess.run(
        [sys.executable, "-m", "interrupted_cli"], capture_output=True, text=True, env=env
    )
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "phase10math: interrupted\n", "")


def command_script(tmp_path: Path, body: str) -> Path:
    """A script named ``phase10math`` (so the process is the command line) whose command runs
    ``body``, a function ``run()`` put in place of the parser."""
    script = tmp_path / "phase10math"
    head = "import signal, sys, threading\nfrom phase10math import cli\n"
    tail = "\ncli.build_parser = run\nsys.exit(cli.main(['table']))\n"
    script.write_text(head + textwrap.dedent(body) + tail)
    return script


def run_to_end(script: Path) -> subprocess.CompletedProcess:
    """The script of :func:`command_script` run to its end (at most 20 s)."""
    proc = launch([sys.executable, str(script)])
    try:
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


def test_ctrl_c_that_the_main_thread_cannot_take_is_answered_within_seconds(tmp_path):
    """The main thread deaf to Ctrl-C (in a wait that the signal does not wake, as in a long
    compiled kernel): the command still prints its one line and exits 130, at once."""
    script = command_script(
        tmp_path,
        """
        def run():
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # another thread gets it
            lock = threading.Lock()
            lock.acquire()
            print("waiting", flush=True)
            lock.acquire()  # never released
        """,
    )
    proc = launch([sys.executable, str(script)])
    try:
        assert proc.stdout.readline() == "waiting\n"
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert (proc.returncode, err, out) == (130, "phase10math: interrupted\n", "")


def test_an_import_that_a_ctrl_c_broke_is_the_ctrl_c_not_an_internal_error(tmp_path):
    """numpy reports an import broken by Ctrl-C as a bad install (an ImportError): after a
    Ctrl-C the command answers it as the Ctrl-C."""
    script = command_script(
        tmp_path,
        """
        def run():
            try:
                signal.raise_signal(signal.SIGINT)
            except KeyboardInterrupt:
                raise ImportError("this is probably caused by a bad install") from None
        """,
    )
    proc = run_to_end(script)
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "phase10math: interrupted\n", "")


def test_ctrl_c_that_lands_where_python_ignores_exceptions_is_still_answered(tmp_path):
    """A Ctrl-C whose handler runs in a weakref callback (as in the import machinery's module
    locks), where Python can only print and drop the exception: no traceback, the one line,
    exit 130, although the main thread never sees it."""
    script = command_script(
        tmp_path,
        """
        import weakref

        class Thing:
            pass

        def run():
            thing = Thing()
            ref = weakref.ref(thing, lambda ref: signal.raise_signal(signal.SIGINT))  # noqa: F841
            del thing  # the callback's KeyboardInterrupt is ignored: the main thread runs on
            threading.Event().wait(30)
        """,
    )
    proc = run_to_end(script)
    assert (proc.returncode, proc.stderr, proc.stdout) == (130, "phase10math: interrupted\n", "")
