"""The deployment files, checked without a cluster: valid YAML, the fields
Kubernetes and Compose require, and ports, probes, volumes and Secrets that agree
with the flags the server is started with (parsed by the real `sheepfold` parser).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml

from cli.main import build_parser
from server import launch
from server.app import ServerConfig
from server.health import LIVENESS_SERVICE
from server.inprocess import InProcessServer
from tests.server.test_metrics import scrape

ROOT = Path(__file__).resolve().parents[2]
KUBE = ROOT / "deploy" / "kubernetes"
COMPOSE = ROOT / "deploy" / "compose"

# What every object needs, by kind (beyond apiVersion, kind and metadata.name).
REQUIRED: dict[str, list[str]] = {
    "Service": ["spec.selector", "spec.ports"],
    "StatefulSet": [
        "spec.selector.matchLabels",
        "spec.serviceName",
        "spec.template.metadata.labels",
        "spec.template.spec.containers",
    ],
    "Secret": [],
}
API_VERSIONS = {"Service": "v1", "Secret": "v1", "StatefulSet": "apps/v1"}


def documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc is not None]


def dig(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        assert isinstance(obj, dict) and part in obj, f"missing {dotted}"
        obj = obj[part]
    return obj


def serve_args(argv: list[str]) -> argparse.Namespace:
    """Parse a container's arguments with the real CLI: an unknown flag fails here."""
    args = build_parser().parse_args(argv)
    assert args.command == "serve"
    return args


def all_objects() -> list[dict[str, Any]]:
    return [doc for path in sorted(KUBE.glob("*.yaml")) for doc in documents(path)]


def by_kind(kind: str) -> list[dict[str, Any]]:
    return [doc for doc in all_objects() if doc["kind"] == kind]


def test_every_object_has_the_required_fields() -> None:
    objects = all_objects()
    assert {doc["kind"] for doc in objects} >= {"Service", "StatefulSet", "Secret"}
    for doc in objects:
        kind = doc["kind"]
        assert doc["apiVersion"] == API_VERSIONS[kind], kind
        name = dig(doc, "metadata.name")
        assert re.fullmatch(r"[a-z0-9]([-a-z0-9]*[a-z0-9])?", name), name
        for field in REQUIRED[kind]:
            assert dig(doc, field), f"{kind}/{name}: empty {field}"


def statefulset() -> tuple[dict[str, Any], dict[str, Any], argparse.Namespace]:
    (sts,) = by_kind("StatefulSet")
    (container,) = sts["spec"]["template"]["spec"]["containers"]
    # `args` alone would replace the image's CMD and run `serve` as the program:
    # the image has no ENTRYPOINT to put in front of it.
    assert container["command"] == ["sheepfold"]
    assert "ENTRYPOINT" not in (ROOT / "Dockerfile").read_text()
    return sts, container, serve_args(container["args"])


def test_statefulset_probes_ports_and_annotations_match_the_flags() -> None:
    sts, container, args = statefulset()
    assert args.host == "0.0.0.0"
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"grpc": args.port, "metrics": args.metrics_port, "health": args.health_port}
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] == args.health_port, probe
    assert container["livenessProbe"]["grpc"]["service"] == LIVENESS_SERVICE
    assert container["readinessProbe"]["grpc"].get("service", "") == ""
    annotations = sts["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/scrape"] == "true"
    assert int(annotations["prometheus.io/port"]) == args.metrics_port
    assert annotations["prometheus.io/path"] == "/metrics"
    selector = sts["spec"]["selector"]["matchLabels"]
    assert selector.items() <= sts["spec"]["template"]["metadata"]["labels"].items()
    services = {svc["metadata"]["name"]: svc for svc in by_kind("Service")}
    assert sts["spec"]["serviceName"] in services
    for svc in services.values():
        assert svc["spec"]["selector"] == selector
        for port in svc["spec"]["ports"]:
            assert port["targetPort"] in ports, port


def test_statefulset_volume_secrets_and_security() -> None:
    sts, container, args = statefulset()
    pod = sts["spec"]["template"]["spec"]
    mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
    claims = {c["metadata"]["name"] for c in sts["spec"]["volumeClaimTemplates"]}
    db_dir = str(PurePosixPath(args.db).parent)
    (data,) = [name for name, path in mounts.items() if path == db_dir]
    assert data in claims, "the database lives on the persistent volume"
    secrets = {s["metadata"]["name"]: s for s in by_kind("Secret")}
    volumes = {v["name"]: v for v in pod["volumes"]}
    tls_dirs = {str(PurePosixPath(p).parent) for p in (args.tls_cert, args.tls_key)}
    assert len(tls_dirs) == 1
    (tls,) = [name for name, path in mounts.items() if path in tls_dirs]
    tls_secret = secrets[volumes[tls]["secret"]["secretName"]]
    assert tls_secret["type"] == "kubernetes.io/tls"
    for flag in (args.tls_cert, args.tls_key):
        assert PurePosixPath(flag).name in tls_secret["stringData"]
    (tls_mount,) = [m for m in container["volumeMounts"] if m["name"] == tls]
    assert "subPath" not in tls_mount, "a subPath mount never sees a renewed Secret"
    env = {e["name"]: e for e in container["env"]}
    ref = env["SHEEPFOLD_ADMIN_TOKEN"]["valueFrom"]["secretKeyRef"]
    assert ref["key"] in secrets[ref["name"]]["stringData"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] != 0
    security = container["securityContext"]
    assert security["readOnlyRootFilesystem"] is True
    assert security["allowPrivilegeEscalation"] is False
    assert "/tmp" in mounts.values(), "a writable /tmp beside the read-only root"
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= container["resources"][kind].keys(), kind
    assert sts["spec"]["replicas"] == 1, "one writer per SQLite file"


def test_compose_file_agrees_with_the_server_flags() -> None:
    (compose,) = documents(COMPOSE / "docker-compose.yml")
    services = compose["services"]
    server = services["sheepfold"]
    command = server["command"]
    assert command[0] == "sheepfold"
    args = serve_args(command[1:])
    assert (ROOT / "deploy" / "compose" / server["build"]["context"] / "Dockerfile").is_file()
    published = {int(p.split(":")[1]) for p in server["ports"]}
    assert args.port in published
    test = server["healthcheck"]["test"]
    assert test[:3] == ["CMD", "sheepfold", "health"]
    assert test[test.index("--addr") + 1] == f"127.0.0.1:{args.health_port}"
    volume, mount = server["volumes"][0].split(":")
    assert mount == str(PurePosixPath(args.db).parent) and volume in compose["volumes"]
    assert "SHEEPFOLD_ADMIN_TOKEN" in server["environment"]
    (prometheus_config,) = documents(COMPOSE / "prometheus.yml")
    targets = [
        target
        for job in prometheus_config["scrape_configs"]
        for static in job["static_configs"]
        for target in static["targets"]
    ]
    assert targets == [f"sheepfold:{args.metrics_port}"]
    mounted = [v.split(":")[0] for v in services["prometheus"]["volumes"]]
    assert "./prometheus.yml" in mounted


def test_compose_rotates_every_services_log() -> None:
    """Docker's default json-file log grows for ever, on the disk that holds the
    database's volume too: a server left running fills it, line by line."""
    (compose,) = documents(COMPOSE / "docker-compose.yml")
    for name, service in compose["services"].items():
        logging = service.get("logging", {})
        assert logging.get("driver") == "json-file", name
        options = logging.get("options", {})
        assert str(options.get("max-size", "")).endswith("m"), name
        assert int(options.get("max-file", 0)) >= 2, name


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile_healthcheck_follows_the_configured_ports() -> None:
    instructions = dockerfile_instructions()
    env: dict[str, str] = {}
    for word, rest in instructions:
        if word == "ENV":
            env.update(re.findall(r"(\w+)=(\S+)", rest))
    (health,) = [rest for word, rest in instructions if word == "HEALTHCHECK"]
    assert "50051" not in health, "the port comes from the environment, not the check"
    assert '"sheepfold", "health"' in health
    exposed = {int(p) for word, rest in instructions if word == "EXPOSE" for p in rest.split()}
    assert {int(env[k]) for k in ("SHEEPFOLD_PORT", "SHEEPFOLD_METRICS_PORT")} <= exposed
    assert int(env["SHEEPFOLD_HEALTH_PORT"]) in exposed
    assert env["SHEEPFOLD_HOST"] == "0.0.0.0"
    (user,) = [rest for word, rest in instructions if word == "USER"]
    assert user != "root"


@pytest.mark.e2e
def test_health_command_follows_the_environment_like_the_image(tmp_path: Path) -> None:
    """What the image's HEALTHCHECK runs: `sheepfold health` with no flags, reading
    SHEEPFOLD_HEALTH_PORT, against a server started with the same environment."""
    server = launch.start(
        [
            sys.executable,
            "-m",
            "cli",
            "serve",
            "--log-format",
            "json",
            "--db",
            str(tmp_path / "s.db"),
        ],
        env={
            "SHEEPFOLD_HOST": "127.0.0.1",
            "SHEEPFOLD_PORT": "0",
            "SHEEPFOLD_HEALTH_PORT": "0",
        },
    )
    try:
        started = next(line for line in server.log_lines if '"server started"' in line)
        health_port = int(re.search(r'"health_port": (\d+)', started).group(1))  # type: ignore[union-attr]
        # An empty SHEEPFOLD_HEALTH_ADDR (a Compose file's `SHEEPFOLD_HEALTH_ADDR:`, or
        # `docker run -e SHEEPFOLD_HEALTH_ADDR` with none set) counts as unset, as every
        # empty SHEEPFOLD_ variable does: it once failed every check ("'' is not HOST:PORT").
        for extra in ({}, {"SHEEPFOLD_HEALTH_ADDR": ""}):
            done = subprocess.run(
                [sys.executable, "-m", "cli", "health"],
                env={**os.environ, "SHEEPFOLD_HEALTH_PORT": str(health_port), **extra},
                capture_output=True,
                text=True,
                timeout=30,
                cwd=launch.ROOT,
            )
            assert done.returncode == 0, (extra, done.stderr)
            assert done.stdout.strip() == f"127.0.0.1:{health_port}: SERVING"
    finally:
        launch.stop(server)


def test_compose_alerts_are_loaded_and_name_only_metrics_a_server_exposes() -> None:
    (compose,) = documents(COMPOSE / "docker-compose.yml")
    (prometheus_config,) = documents(COMPOSE / "prometheus.yml")
    mounts = {}
    for volume in compose["services"]["prometheus"]["volumes"]:
        source, target, *_ = volume.split(":")
        mounts[target] = source
    rule_files = prometheus_config["rule_files"]
    assert rule_files, "prometheus.yml loads the alerts"
    exposed = exposed_metric_names()
    alerts = []
    for rule_file in rule_files:
        source = mounts[rule_file]
        assert (COMPOSE / source).is_file(), source
        (rules,) = documents(COMPOSE / source)
        for group in rules["groups"]:
            for rule in group["rules"]:
                assert rule["alert"] and rule["for"] and rule["annotations"]["summary"]
                named = set(re.findall(r"sheepfold_[a-z_]+", rule["expr"]))
                assert named and named <= exposed, named - exposed
                alerts.append(rule["alert"])
    assert "SheepfoldServerFull" in alerts


def exposed_metric_names() -> set[str]:
    """Every sample name a real server with metrics on exposes."""
    with InProcessServer(ServerConfig(metrics_port=0)) as running:
        port = running.server.metrics_port
        assert port
        return {name for name, _ in scrape(port)}
