# Sheepfold server image: the same install as `make install`, without dev tools.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot sandbox (docs/operations.md, "Running untrusted bots"): bubblewrap, and
# prlimit, setpriv, unshare and mount from util-linux (already in the base image). Inside
# a container bwrap needs namespaces, which Docker's default profiles forbid, and
# an unmasked /proc:
#   docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
#       --security-opt systempaths=unconfined ...
# Without them sandboxed bots are refused with a clear error, never run unsandboxed.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY pyproject.toml README.md LICENSE ./
COPY proto ./proto
COPY games ./games
COPY server ./server
COPY clients ./clients
COPY tournament ./tournament
COPY cli ./cli
COPY web ./web
COPY benchmarks ./benchmarks
RUN pip install . \
    && useradd --create-home --uid 10001 sheepfold \
    && mkdir /data && chown sheepfold /data \
    && rm -rf /src

# An unprivileged user: bots' process limits then need no cgroup (see the docs).
USER sheepfold
# The match database (sheepfold.db, the default --db) lives here: mount a volume
# so unfinished matches survive a restart of the container.
WORKDIR /data
VOLUME ["/data"]

# `sheepfold serve` and `sheepfold health` both read these, so the HEALTHCHECK
# follows the ports the server is given: change them with `docker run -e`, not
# with flags. The health port serves only grpc.health.v1, in plaintext, so the
# check works with TLS on the main port too.
# No admin token and no TLS by default: the server then logs a loud warning at
# start-up. Set SHEEPFOLD_ADMIN_TOKEN (and mount a certificate for --tls-cert and
# --tls-key) for anything reachable from outside the host.
ENV SHEEPFOLD_HOST=0.0.0.0 \
    SHEEPFOLD_PORT=50051 \
    SHEEPFOLD_METRICS_PORT=9100 \
    SHEEPFOLD_HEALTH_PORT=8081

EXPOSE 50051 9100 8081
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["sheepfold", "health"]
CMD ["sheepfold", "serve", "--log-format", "json"]
