# syntax=docker/dockerfile:1
# Patchbay's hub as a container: `patchbay serve` on 0.0.0.0:8080, JSON log lines on stdout, the
# data dir on a volume at /data, a non-root user, and nothing written outside /data (and /tmp, if
# the servers you configure write there), so it runs with a read-only root file system.
# docs/deploy.md explains every setting and shows replicas behind a load balancer.
#
#   docker build -t patchbay .
#   docker run --read-only --tmpfs /tmp -v patchbay-data:/data -p 8080:8080 \
#     -e PATCHBAY_HUB_TOKEN="$(openssl rand -base64 32 | tr '+/' '-_' | tr -d '=')" patchbay
#
# Bound beyond loopback, the hub always requires its token: give it with PATCHBAY_HUB_TOKEN, a
# mounted file (PATCHBAY_HUB_TOKEN_FILE), or let the first start create /data/hub-token.

ARG NODE_VERSION=22

# 1. Build: the compiler, Vite and the other dev dependencies are needed here, not at run time.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
# Electron and Playwright are dev dependencies for the desktop app and the UI tests: never
# download their binaries for a server image.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1 PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# 2. Production dependencies only, from the same lock file.
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
ENV npm_config_fund=false npm_config_audit=false
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# 3. What runs: Node, tini (PID 1 that forwards signals and reaps the grandchildren of stdio
# servers started through npx or a shell), the build and its production dependencies.
FROM node:${NODE_VERSION}-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /data \
 && chown node:node /data \
 && chmod 0700 /data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /src/package.json ./package.json
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist ./dist
ENV NODE_ENV=production \
    PATCHBAY_HOME=/data \
    PATCHBAY_LOG_FORMAT=json \
    PATCHBAY_NO_LOGIN_SHELL=1
USER node
VOLUME ["/data"]
EXPOSE 8080
# Readiness, not only liveness: 200 once the engine serves a valid config, 503 while it shuts
# down. From inside the container the Host check sees 127.0.0.1:8080, which it accepts. A
# different --port needs a HEALTHCHECK of its own.
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/health/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/bin/patchbay.js"]
# --no-login-link: the output is kept (a container's log); log in to /ui with the hub token.
CMD ["serve", "--host", "0.0.0.0", "--port", "8080", "--no-login-link"]
