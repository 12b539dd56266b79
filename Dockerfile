# The Goal Cup tools in a container: Debian 12, built in one stage, run as a
# non-root user from a slim stage that holds the three tools and their
# runtime libraries only (docs/INSTALL.md).
#
#   docker build -t goalcup-tools .
#   docker run --rm -v "$PWD/uploads:/data:ro" goalcup-tools goalcup-verify --batch /data
#
# scripts/docker-stages.sh runs the same stages without a container runtime.

# --- build: compile, test the tools on the samples, install into /staging
FROM debian:12 AS build
ENV DEBIAN_FRONTEND=noninteractive
# The build packages of scripts/packages.txt (not the test-only ones).
RUN apt-get update && apt-get install -y --no-install-recommends \
      build-essential cmake ninja-build pkg-config ca-certificates \
      libsodium-dev libsimdjson-dev libzstd-dev libcli11-dev libabsl-dev libgtest-dev libxxhash-dev \
      libarchive-dev libssl-dev libvectorscan-dev zlib1g-dev libyaml-cpp-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN cmake -S . -B /build -G Ninja -DCMAKE_BUILD_TYPE=Release -DGOALCUP_TESTS=OFF -DCMAKE_INSTALL_PREFIX=/usr/local \
 && cmake --build /build --target goalcup-verify goalcup-inspect goalcup-cheatcheck \
 && DESTDIR=/staging cmake --install /build --strip \
 && /staging/usr/local/bin/goalcup-verify --no-progress fixtures/samples/codex-verified.jsonl

# --- runtime: the tools and the shared libraries they link, nothing else
FROM debian:12-slim AS runtime
ENV DEBIAN_FRONTEND=noninteractive
RUN apt-get update && apt-get install -y --no-install-recommends \
      libsodium23 libzstd1 libarchive13 libssl3 libvectorscan5 zlib1g libyaml-cpp0.7 libsimdjson14 \
      libabsl20220623 libxxhash0 libbrotli1 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin goalcup
COPY --from=build /staging/usr/local/ /usr/local/
USER goalcup
WORKDIR /data
CMD ["goalcup-verify", "--help"]
