# Sheepfold server image: the same install as `make install`, without dev tools.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

# The bot sandbox (docs/operations.md, "Running untrusted bots"): bubblewrap, and
# prlimit from util-linux (already in the base image). Inside a container bwrap
# needs namespaces, which Docker's default profiles forbid, and an unmasked /proc:
#   docker run --security-opt seccomp=unconfined --security-opt apparmor=unconfined \
#       --security-opt systempaths=unconfined ...
# Without them sandboxed bots are refused with a clear error, never run unsandboxed.
RUN apt-get update \
    && apt-get install -y --no-install-recommends bubblewrap \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /src
COPY pyproject.toml README.md ./
COPY proto ./proto
COPY games ./games
COPY server ./server
COPY clients ./clients
COPY tournament ./tournament
COPY cli ./cli
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

EXPOSE 50051
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["sheepfold", "health", "--addr", "127.0.0.1:50051"]
CMD ["sheepfold", "serve", "--host", "0.0.0.0", "--port", "50051"]
