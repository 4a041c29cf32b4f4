# Release build of the `wort` binary on a slim Debian runtime.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY . .
RUN cargo build --release --locked -p wort-server --bin wort

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates && rm -rf /var/lib/apt/lists/*
COPY --from=build /src/target/release/wort /usr/local/bin/wort
USER nobody
EXPOSE 8080
ENTRYPOINT ["wort"]
CMD ["serve"]
