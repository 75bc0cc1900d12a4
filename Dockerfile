# syntax=docker/dockerfile:1
# (a parser directive: it must be the file's first line, before any comment,
# or BuildKit reads it as a comment; it asks for a frontend with RUN --mount.)
# Multi-stage build of the Catan server image.
# Stage 1 compiles the release binary; stage 2 is a small Debian runtime that
# runs it as an unprivileged user with the static front end beside it.

FROM rust:1.95-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock rust-toolchain.toml ./
COPY .cargo .cargo
COPY crates crates
COPY migrations migrations
# BuildKit cache mounts keep the crate registry and the target directory
# between builds, so a source edit recompiles only the crates it touches
# (dependencies stay compiled in the cache). The binaries are copied out of
# the cached target directory, which is not part of the image layer.
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/src/target \
    cargo build --release --locked -p catan-server -p catan-cli \
 && mkdir -p /out \
 && cp target/release/catan-server target/release/catan /out/

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system catan \
 && useradd --system --gid catan --home-dir /app --shell /usr/sbin/nologin catan \
 && mkdir -p /app/data \
 && chown catan:catan /app/data
WORKDIR /app
COPY --from=build /out/catan-server /usr/local/bin/catan-server
COPY --from=build /out/catan /usr/local/bin/catan
COPY web/public /app/web
USER catan
ENV CATAN_BIND=0.0.0.0:8080 \
    CATAN_STATIC_DIR=/app/web \
    CATAN_DATA_DIR=/app/data \
    RUST_LOG=info
EXPOSE 8080
VOLUME ["/app/data"]
HEALTHCHECK --interval=10s --timeout=3s --start-period=10s --retries=3 \
  CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
CMD ["catan-server"]
