# Release build of the `wort` binary, with its web app embedded, on a slim Debian runtime.

# The web app: built first, then embedded into the binary by crates/http/build.rs.
FROM node:20-bookworm-slim AS web
WORKDIR /src/web
COPY web/package.json web/package-lock.json ./
# npm ci: exactly the locked versions; the lock names every platform's optional binaries.
RUN PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
COPY web/ ./
RUN npm run build

FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
COPY --from=web /src/web/dist web/dist
RUN cargo build --release --locked -p wort-server --bin wort

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/wort /usr/local/bin/wort
# The built-in ingredient catalogue is compiled into the binary; its sources' MIT notices ship beside it.
COPY crates/domain/data/catalog/NOTICE.md /usr/share/doc/wort/ingredient-catalogue-NOTICE.md
USER nobody
EXPOSE 8080
ENTRYPOINT ["wort"]
CMD ["serve"]
