# clarissa in a container, built the way Swift server images are: a builder with the toolchain
# and the -dev packages makes a binary with the Swift runtime linked in (--static-swift-stdlib);
# a slim runtime image of the same Debian release gets only that binary and the libraries it
# loads. The folder mounted at /data holds searches.yaml and the state file clarissa writes
# beside it; --user makes those files yours on the host.
#
#   docker build -t clarissa .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" clarissa validate
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/data" -e NTFY_TOPIC clarissa run
#   docker run -d --restart unless-stopped --user "$(id -u):$(id -g)" -v "$PWD:/data" clarissa watch
#
# Workers sharing a PostgreSQL store (docs/scaling.md) need the trait:
#   docker build --build-arg TRAITS=PostgreSQL -t clarissa:postgresql .
#
# docs/install.md says more. .ci/static-check checks that the runtime packages below cover every
# library the static binary loads, and lints this file when hadolint is installed.

# The Swift release .ci/run builds with (.ci/static-check keeps them equal).
ARG SWIFT_VERSION=6.3

# ================================
# Build image
# ================================
FROM swift:${SWIFT_VERSION}-bookworm AS build

# The image has libxml2-dev, libcurl4-openssl-dev, libsqlite3-dev and pkg-config already (named
# anyway, so the list is the build's whole need); libyaml-dev and the photo decoders'
# libturbojpeg0-dev, libpng-dev and libwebp-dev it may lack.
# Versions are not pinned (DL3008): the image tag fixes the Debian release, and exact versions
# vanish from the archive with each security update, which would break the build.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends libyaml-dev libxml2-dev \
      libcurl4-openssl-dev libssl-dev libsqlite3-dev libpq-dev libturbojpeg0-dev libpng-dev \
      libwebp-dev pkg-config \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /build

# The manifest alone first: swift-argument-parser is fetched once, not after every source change.
COPY Package.swift ./
RUN swift package resolve

COPY . .
# TRAITS=PostgreSQL builds the PostgreSQL store in (libpq); empty, the default build.
ARG TRAITS=""
RUN swift build -c release --static-swift-stdlib --product clarissa ${TRAITS:+--traits "$TRAITS"}

WORKDIR /staging
# The binary, and the runtime's crash reporter (static binaries need it named in SWIFT_BACKTRACE).
RUN bin="$(swift build --package-path /build -c release --static-swift-stdlib --show-bin-path ${TRAITS:+--traits "$TRAITS"})" \
    && cp "$bin/clarissa" ./ \
    && cp /usr/libexec/swift/linux/swift-backtrace-static ./

# ================================
# Run image
# ================================
FROM debian:bookworm-slim

# One package a line: .ci/static-check reads this list. libc6, libstdc++6 and libgcc-s1, which
# the binary also loads, are part of the base image. Unpinned for the reason given above.
# libjs-leaflet and libjs-leaflet.markercluster (BSD-2-Clause) are the map of `clarissa serve`
# (/map), served from /usr/share/javascript/leaflet; the rest works without them.
# hadolint ignore=DL3008
RUN export DEBIAN_FRONTEND=noninteractive DEBCONF_NONINTERACTIVE_SEEN=true \
    && apt-get -q update \
    && apt-get -q install -y --no-install-recommends \
      libyaml-0-2 \
      libxml2 \
      libcurl4 \
      libssl3 \
      libsqlite3-0 \
      libpq5 \
      libturbojpeg0 \
      libpng16-16 \
      libwebp7 \
      ca-certificates \
      tzdata \
      libjs-leaflet \
      libjs-leaflet.markercluster \
    && rm -rf /var/lib/apt/lists/*

# A fixed numeric id, so that USER works where names cannot be resolved (runAsNonRoot checks).
RUN groupadd --system --gid 10001 clarissa \
    && useradd --system --uid 10001 --gid clarissa --no-create-home --home-dir /data clarissa

COPY --from=build /staging/clarissa /usr/local/bin/clarissa
COPY --from=build /staging/swift-backtrace-static /usr/local/libexec/swift-backtrace-static

# A crash prints a symbolicated backtrace to the container's log instead of a bare signal.
ENV SWIFT_BACKTRACE=enable=yes,sanitize=yes,threads=all,images=all,interactive=no,swift-backtrace=/usr/local/libexec/swift-backtrace-static

WORKDIR /data
VOLUME /data
USER 10001:10001

ENTRYPOINT ["clarissa"]
CMD ["--help"]
