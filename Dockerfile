# Sheepfold server image: the same install as `make install`, without dev tools.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

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

USER sheepfold
# The match database (sheepfold.db, the default --db) lives here: mount a volume
# so unfinished matches survive a restart of the container.
WORKDIR /data
VOLUME ["/data"]

EXPOSE 50051
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
    CMD ["sheepfold", "health", "--addr", "127.0.0.1:50051"]
CMD ["sheepfold", "serve", "--host", "0.0.0.0", "--port", "50051"]
