# syntax=docker/dockerfile:1
# The agent-mux Probot app. Node 24 runs the TypeScript sources directly (type stripping), so there is no build step.
#
#   docker build -t agent-mux-app .
#   docker run --env-file .env -p 3000:3000 -v agent-mux-data:/app/data \
#     --security-opt seccomp=unconfined --security-opt apparmor=unconfined --device /dev/net/tun agent-mux-app
# (or `docker compose up -d`, compose.yaml). The two --security-opt let bubblewrap, the agents' fence,
# create its user namespace and mounts: Docker's default profiles block them, and then no agent
# starts (/agent-mux/ready answers 503 with the reason, each waiting mention gets a reply saying so).
# /dev/net/tun lets slirp4netns give the fence's network namespace its egress (without it, the same
# 503; AGENT_MUX_FENCE_NETWORK=host gives agents the container's network instead).
#
# Agents' CLIs (claude, codex, …) are not included: extend this image with the ones your repositories use.

# --- deps: production dependencies only ---
FROM node:24-bookworm-slim AS deps
WORKDIR /app
# Build tools for the optional native module node-pty (agents that need a pseudo-terminal).
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
# npm's prepare runs it (without TypeScript it only says there is no lib/ to build: the app runs the sources).
COPY scripts/prepare.ts ./scripts/
RUN npm ci --omit=dev && npm cache clean --force

# --- runtime ---
FROM node:24-bookworm-slim AS runtime
# git clones the repositories the agents work in; ca-certificates for HTTPS to GitHub; tini reaps agents' children;
# bubblewrap fences each agent off, slirp4netns gives the fence's network namespace egress without the loopback.
RUN apt-get update \
  && apt-get install -y --no-install-recommends git ca-certificates tini bubblewrap slirp4netns \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=3000 \
  AGENT_MUX_DATA_DIR=/app/data \
  AGENT_MUX_WORK_DIR=/app/data/work
WORKDIR /app
COPY --from=deps --chown=node:node /app/node_modules ./node_modules
COPY --chown=node:node package.json app.yml ./
COPY --chown=node:node schema ./schema
COPY --chown=node:node src ./src
RUN mkdir -p /app/data/work && chown -R node:node /app/data
# The node image's unprivileged user (uid 1000).
USER node
# The SQLite database and the runs' workspaces (unless DATABASE_URL points at PostgreSQL).
VOLUME ["/app/data"]
EXPOSE 3000
# Healthy only once the app can work (GET /app succeeded, store open): /agent-mux/ready, not Probot's /ping.
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/agent-mux/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# The same as `npm start`: probot runs the app's TypeScript entry.
CMD ["node", "node_modules/probot/bin/probot.js", "run", "./src/app/index.ts"]
