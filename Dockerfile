# Multi-stage build of the Catan server image.
# Stage 1 compiles the release binary; stage 2 is a small Debian runtime that
# runs it as an unprivileged user with the static front end beside it.

FROM rust:1.95-bookworm AS build
WORKDIR /src
# Dependencies first, so source edits do not rebuild them.
COPY Cargo.toml Cargo.lock ./
COPY .cargo .cargo
COPY crates crates
COPY migrations migrations
RUN cargo build --release --locked -p catan-server -p catan-cli

FROM debian:bookworm-slim AS runtime
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system catan \
 && useradd --system --gid catan --home-dir /app --shell /usr/sbin/nologin catan \
 && mkdir -p /app/data \
 && chown catan:catan /app/data
WORKDIR /app
COPY --from=build /src/target/release/catan-server /usr/local/bin/catan-server
COPY --from=build /src/target/release/catan /usr/local/bin/catan
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
