# syntax=docker/dockerfile:1
# The kbqa service. It ships TypeScript that tsx (a runtime dependency) compiles on load; only the
# console (web/console) is built ahead, in the `console` stage.
#   docker build -t kbqa .
#   docker run -p 2678:2678 -v kbqa-data:/data kbqa          embedded: everything under /data
#   docker compose up                                        distributed: see docker-compose.yml

ARG NODE_IMAGE=node:20-bookworm-slim

# Production dependencies only. better-sqlite3 fetches a prebuilt binary for linux x64/arm64 (glibc);
# python3, make and g++ are the fallback that compiles it when none fits. They stay in this stage.
FROM ${NODE_IMAGE} AS deps
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
# The Russian OCR model is a local package (npm has none): npm ci links node_modules/@kbqa/tessdata-rus to it.
COPY vendor ./vendor
RUN --mount=type=cache,target=/root/.npm \
    npm ci --omit=dev --no-audit --no-fund

# The console (web/console): built by Vite, a development dependency, so in a stage of its own with
# every dependency and no install scripts (nothing native is needed to bundle); only dist/console leaves it.
FROM ${NODE_IMAGE} AS console
WORKDIR /app
COPY package.json package-lock.json ./
COPY vendor ./vendor
RUN --mount=type=cache,target=/root/.npm \
    npm ci --ignore-scripts --no-audit --no-fund
COPY web ./web
COPY sdk/typescript/src/generated ./sdk/typescript/src/generated
COPY scripts/build-console.mjs ./scripts/
RUN npm run build:console

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=2678 \
    KBQA_DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/vendor ./vendor
# Only what runs: the code stays owned by root, read-only to the service's user.
COPY package.json tsconfig.json ./
COPY bin ./bin
COPY src ./src
COPY schemas ./schemas
COPY projections ./projections
COPY consumers ./consumers
COPY samples ./samples
# The landing page's sources: the server bundles them with esbuild when it starts (src/http/landing/bundle.ts).
COPY web ./web
# The console's build, served at / (src/http/console/).
COPY --from=console /app/dist/console ./dist/console
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 2678
# Every role answers /readyz on $PORT (the non-API roles serve only /healthz, /readyz and /metrics).
# The slim image has no curl: node's own fetch asks.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 2678}/readyz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# The young generation the server is measured with (src/adapters/local/young-generation.ts).
ENV NODE_OPTIONS=--max-semi-space-size=64
ENTRYPOINT ["node", "bin/kbqa.js"]
CMD ["serve"]
