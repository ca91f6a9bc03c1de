# The reference server and the built studio in one image (docs/operators/distributed.md). Not built in CI here:
# the distributed test (tests/distributed) runs the same processes from Debian's packages instead.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npx vite build --logLevel warn

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data LOG_FORMAT=json STUDIO_DIST=/app/dist
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json tsconfig.json ./
COPY server ./server
COPY contract ./contract
COPY locales ./locales
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:8080/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# SIGTERM: /readyz turns 503, sockets are told to reconnect elsewhere, uploads get SHUTDOWN_GRACE_MS to finish.
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "server/main.ts"]
