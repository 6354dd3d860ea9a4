# Forge for the scaled mode: one image for `forge serve` and `forge worker` (see compose.yaml).
# Build: docker build -t forge .   Run the server: docker run -e FORGE_DATABASE_URL=… -e FORGE_REDIS_URL=… forge
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Dependencies first (cached while only the source changes); the build runs once the source is in.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:20-bookworm-slim
ENV NODE_ENV=production \
    FORGE_HOME=/data \
    FORGE_SERVE_HOST=0.0.0.0 \
    FORGE_SERVE_PORT=7700 \
    FORGE_WORKER_HEALTH_PORT=8081
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME /data
EXPOSE 7700
# Liveness of the server (/health needs no credentials); a worker's service overrides it with its own /health (compose.yaml).
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.FORGE_SERVE_PORT || 7700) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "bin/forge.js", "serve"]
