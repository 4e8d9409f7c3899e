# Verbatim on the official Node image: built with npm ci and the bundle, run as `node`, data in /data.

# Both stages use one image: Node 24 (LTS "Krypton", supported until 2028-04-30) on Debian bookworm,
# pinned to a full version as the image's docs advise, so a rebuild gets the same Node and a Node
# update is a reviewed change here. To pin the exact bytes too, append the digest that
# `docker buildx imagetools inspect node:24.19.0-bookworm-slim` prints (the index's, which covers
# every platform): NODE_IMAGE=node:24.19.0-bookworm-slim@sha256:<digest>. `--build-arg
# NODE_IMAGE=…` tries another without editing this file.
ARG NODE_IMAGE=node:24.19.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles from source when its prebuilt binary cannot be downloaded.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY packages/domain/package.json packages/domain/
COPY packages/planner/package.json packages/planner/
COPY packages/projections/package.json packages/projections/
COPY packages/testkit/package.json packages/testkit/
COPY packages/server/package.json packages/server/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run bundle && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    VERBATIM_DATA_DIR=/data
# The local readers: Tesseract reads photos and scanned pages (with its English data, the default
# VERBATIM_OCR_LANGUAGES), poppler reads PDFs, ffmpeg takes the sound out of videos and cuts long
# recordings at their silences. Images are decoded in process by sharp (its own libvips), so no
# ImageMagick. This list is packages/server/src/Media/Programs.ts's, checked by
# test/DockerfilePackages.test.ts: a program added there fails the test until it is installed here.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng poppler-utils ffmpeg \
  && rm -rf /var/lib/apt/lists/*
# The bundle reads its prompts and the demo from the paths it was built at, so /app is kept as built.
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
RUN mkdir -p /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--max-old-space-size=256", "--max-semi-space-size=8", "packages/server/build/verbatim.mjs", "serve"]
