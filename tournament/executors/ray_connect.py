"""Joining the Ray cluster a run plays on, or starting a Ray instance of its own.

Each step has a timeout: the address is checked to answer as a Ray cluster
before Ray is asked to join it (so a wrong address is one line within
seconds), and joining waits JOIN_SECONDS at most, since ray.init has no
timeout of its own. Ray's own notices that mean nothing to a run (token
authentication on its own instance, no SIGTERM handler off the main thread)
are kept out of the run's output, and the command's SIGTERM handler is put
back after Ray set its own. Once joined, head_watch watches the head's GCS
(see ray_head).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
from collections.abc import Iterator
from typing import Any

from tournament.executors.ray_address import RayAddressError, check_address
from tournament.executors.ray_head import HeadWatch
from tournament.executors.ray_local import own_instance, warn_of_open_tokens
from tournament.executors.ray_shipping import gitignored_files_shipped
from tournament.executors.settings import ExecutorSettings
from tournament.run_error import RunError

__all__ = ["JOIN_SECONDS", "connected", "head_watch"]

# Below the 60 s after which Ray's own GCS client gives up by ending the process.
JOIN_SECONDS = 45.0
# Where Ray says it turned token authentication on for an instance it starts.
AUTH_LOGGER = "ray._private.authentication.authentication_token_setup"
TOKEN_NOTICE = "Token authentication is enabled for this Ray cluster"
# At ray.shutdown the driver sends the GCS its last task events (for Ray's
# dashboard), and waited the whole 5 s of Ray's default when the head was gone.
SHUTDOWN_FLUSH = ("RAY_task_events_shutdown_flush_timeout_ms", "1000")


@contextlib.contextmanager
def connected(settings: ExecutorSettings, runtime_env: dict[str, Any]) -> Iterator[None]:
    """Joined to the cluster at settings.address, or to a Ray instance of the
    run's own (see ray_local) started here, while inside. Once there, a Ray
    token file others can read is warned of (not before: a wrong address is one line)."""
    with contextlib.ExitStack() as stack:
        own = stack.enter_context(own_instance()) if settings.address is None else {}
        stack.enter_context(_ray_init(settings, runtime_env, own))
        warn_of_open_tokens()
        yield


@contextlib.contextmanager
def _ray_init(
    settings: ExecutorSettings, runtime_env: dict[str, Any], own: dict[str, Any]
) -> Iterator[None]:
    try:
        import ray
    except ImportError:
        raise RunError("--ray needs Ray on this machine: pip install 'sheepfold[ray]'") from None
    address = settings.address
    if address == "auto":
        address = _auto_address()
    if address is not None and address != "auto":
        check_address(address)
    kwargs: dict[str, Any] = {
        "runtime_env": runtime_env,
        "logging_level": logging.WARNING,
        "log_to_driver": False,
    }
    if address is None:
        kwargs.update(own, address="local", num_cpus=settings.num_cpus, include_dashboard=False)
    else:
        kwargs["address"] = address
    where = f"the Ray cluster at {address}" if address else "a local Ray instance"
    outcome: dict[str, BaseException | None] = {}

    def connect() -> None:
        try:
            with gitignored_files_shipped(), _quick_shutdown():
                ray.init(**kwargs)
            outcome["error"] = None
        except BaseException as error:  # reported by the waiting thread
            outcome["error"] = error

    # ray.init puts a handler of its own on SIGTERM: on this thread, Python's
    # (sys.exit(15) wherever the run is); on another, its core worker's, which
    # prints a stack dump ("*** SIGTERM received ...") before the command's. The
    # command's (SIGTERM stops the run as Ctrl-C does) is put back after, alone.
    sigterm = signal.getsignal(signal.SIGTERM)
    if address is None:
        # Starting Ray here, it warns that it turned token authentication on, and
        # how to turn it off, in a plain-text line between the run's log lines:
        # the instance is the run's own, and ends with it.
        auth_log = logging.getLogger(AUTH_LOGGER)
        auth_log.addFilter(_no_token_notice)
        # On this thread: the processes Ray starts die with the thread that started them.
        try:
            connect()
        finally:
            auth_log.removeFilter(_no_token_notice)
            _restore_sigterm(sigterm)
    else:
        # ray.init has no timeout of its own: a port that is not Ray's leaves it waiting.
        thread = threading.Thread(target=connect, name="ray-connect", daemon=True)
        # Off the main thread it warns "SIGTERM handler is not set": the command's is.
        ray_worker_log = logging.getLogger("ray._private.worker")
        ray_worker_log.addFilter(_no_sigterm_warning)
        try:
            thread.start()
            thread.join(JOIN_SECONDS)
        finally:
            ray_worker_log.removeFilter(_no_sigterm_warning)
        if "error" not in outcome:
            raise RunError(f"cannot connect to {where}: no answer within {JOIN_SECONDS:.0f} s")
        _restore_sigterm(sigterm)
    error = outcome["error"]
    if error is not None:
        # What ray.init started before it was stopped (its agents outlived the
        # run by about a minute otherwise) or failed.
        with contextlib.suppress(Exception):
            ray.shutdown()
    if isinstance(error, SystemExit) and error.code == signal.SIGTERM:
        raise KeyboardInterrupt  # SIGTERM while Ray started: stop as Ctrl-C does
    if error is not None and not isinstance(error, Exception):
        raise error  # Ctrl-C (KeyboardInterrupt) or SystemExit: not a failure to report
    if error is not None:
        raise RunError(f"cannot start or join {where}: {_init_problem(error)}")
    try:
        yield
    finally:
        ray.shutdown()


# Ray's refusal of a package above its limit (its advice, .gitignore, no longer applies).
TOO_BIG = re.compile(
    r"upload (?:working_dir|py_modules) (?P<folder>.+?) to the Ray cluster: "
    r"Package size \((?P<size>[^)]+)\) exceeds the maximum size of (?P<limit>\S+?)\.(?:\s|$)"
)


def _init_problem(error: Exception) -> str:
    """One line saying why ray.init failed. Its first line alone can be a mere
    "Failed to set up runtime environment.", the reason on the next."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    if not lines:
        return type(error).__name__
    too_big = TOO_BIG.search(" ".join(lines))
    if too_big:
        return (
            f"the files to ship from {too_big['folder']} come to {too_big['size']}, above "
            f"Ray's limit of {too_big['limit']}: leave big files out with a .rayignore file "
            "there (one pattern a line, as in .gitignore), or move them"
        )
    if lines[0].startswith("Failed to set up runtime environment") and len(lines) > 1:
        return f"{lines[0].rstrip('.')}: {lines[1]}"
    return lines[0]


NO_AUTO_CLUSTER = (
    "cannot join a Ray cluster: --ray auto found none started on this machine "
    "(ray start --head) and {environment}; give the head's address "
    "(--ray HEAD:6379), or --ray alone to start Ray here"
)


def _auto_address() -> str:
    """The address `--ray auto` joins, found as Ray finds it (RAY_ADDRESS, else
    the cluster `ray start --head` started here) and checked like one given:
    ray.init ends on a flag sheepfold does not have ("set the `--address` flag")
    when there is none, and waits 45 s at one where nothing answers."""
    environment = os.environ.get("RAY_ADDRESS", "")
    # RAY_ADDRESS=auto names no address: Ray looks for one here, as --ray auto does.
    from_environment = environment not in ("", "auto")
    try:
        from ray._private.services import get_ray_address_from_environment

        found = get_ray_address_from_environment("auto", None)
    except ConnectionError:
        said = f"RAY_ADDRESS={environment} names none" if environment else "RAY_ADDRESS is not set"
        raise RayAddressError(NO_AUTO_CLUSTER.format(environment=said)) from None
    except Exception:  # another Ray's internals: ray.init finds it, as before
        return "auto"
    if not isinstance(found, str) or not found or found == "auto":
        return "auto"
    try:
        check_address(found)
    except RayAddressError as error:
        raise RayAddressError(
            f"{error}; --ray auto took it from {_auto_source(found, from_environment)}"
        ) from None
    return found


def _auto_source(found: str, from_environment: bool) -> str:
    """Where Ray's `auto` found `found`: RAY_ADDRESS, the address file the last
    `ray start --head` left, or else a running Ray process's command line (its
    legacy fallback, which also finds a cluster this process cannot reach)."""
    if from_environment:
        return "RAY_ADDRESS"
    try:
        from ray._private.services import find_bootstrap_address

        left_by_ray_start = find_bootstrap_address(None)
    except Exception:  # another Ray's internals: say what it most likely read
        return "the last `ray start --head` on this machine"
    if left_by_ray_start == found:
        return "the last `ray start --head` on this machine"
    return "a Ray process running on this machine (ray start, or a Ray started by another program)"


def head_watch(settings: ExecutorSettings) -> HeadWatch | None:
    """A watch on the GCS of the cluster joined (None: Ray Client's, or Ray
    did not say where it is)."""
    import ray

    if (settings.address or "").startswith("ray://"):
        return None
    try:
        address = ray.get_runtime_context().gcs_address
    except Exception:  # another Ray's internals: its own client notices, later
        return None
    if not isinstance(address, str) or not address:
        return None
    return HeadWatch(address, lost_after=settings.head_timeout_seconds)


@contextlib.contextmanager
def _quick_shutdown() -> Iterator[None]:
    """ray.init reads, unless the user set it, a shorter wait for the driver's
    last task events at ray.shutdown (see SHUTDOWN_FLUSH)."""
    name, value = SHUTDOWN_FLUSH
    if name in os.environ:
        yield
        return
    os.environ[name] = value
    try:
        yield
    finally:
        os.environ.pop(name, None)


def _no_sigterm_warning(record: logging.LogRecord) -> bool:
    """Drops ray.init's warning that it set no SIGTERM handler off the main thread."""
    return not record.getMessage().startswith("SIGTERM handler is not set")


def _no_token_notice(record: logging.LogRecord) -> bool:
    """Drops Ray's notice that the instance it starts has token authentication on."""
    return not record.getMessage().startswith(TOKEN_NOTICE)


def _restore_sigterm(handler: Any) -> None:
    """Put `handler` back on SIGTERM (from the main thread; None: not Python's to set)."""
    if handler is not None and threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, handler)
