#!/usr/bin/env bash
# The image's entrypoint: `docker run IMAGE <command> [options]` runs like `bin/ferry <command> [options]`.
#
# Starts the server jar with the same JVM flags as bin/ferry; keep the two in step. It never builds the jar:
# the image carries it (docker/Dockerfile).
#
# Environment (as for bin/ferry):
#   FERRY_HEAP            Java heap, e.g. 4g (default 8g): query working memory (hash tables, sorts)
#   FERRY_DIRECT_MEMORY   off-heap ceiling for table data in Arrow memory (default 12g)
#   FERRY_JAVA_OPTS       more JVM options
#   FERRY_JAR             the server jar (default /opt/ferry/ferry-server.jar)
#   FERRY_ADVERTISE_IP    1: announce this container's IP address (--advertise), for replicas of one service
#                         (`docker compose up --scale`), which share a service name and so cannot announce it
#   JAVA_HOME             the JDK or JRE to use; else java on the PATH
set -euo pipefail

jar="${FERRY_JAR:-/opt/ferry/ferry-server.jar}"
if [ ! -f "$jar" ]; then
  echo "ferry: no server jar at $jar (set FERRY_JAR)" >&2
  exit 1
fi

java="java"
if [ -n "${JAVA_HOME:-}" ]; then
  java="$JAVA_HOME/bin/java"
fi

flags=(
  "-Xmx${FERRY_HEAP:-8g}"
  -XX:+UseParallelGC
  # Arrow reads java.nio.Buffer's address field, and runs its buffers without bounds checks (the engine's
  # kernels check their own); Netty allocates Arrow's direct memory; DiSNI (rdma fabric) needs sun.nio.ch.
  --add-opens=java.base/java.nio=ALL-UNNAMED
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  -Darrow.enable_unsafe_memory_access=true
  -Dio.netty.tryReflectionSetAccessible=true
  "-XX:MaxDirectMemorySize=${FERRY_DIRECT_MEMORY:-12g}"
)
# shellcheck disable=SC2206 # FERRY_JAVA_OPTS is a list of options, split on purpose
extra=(${FERRY_JAVA_OPTS:-})

args=("$@")
if [ "${FERRY_ADVERTISE_IP:-0}" = "1" ]; then
  ip_address="$(hostname -i | awk '{print $1}')"
  if [ -z "$ip_address" ]; then
    echo "ferry: FERRY_ADVERTISE_IP=1 but this container has no IP address (hostname -i)" >&2
    exit 1
  fi
  args+=(--advertise "$ip_address")
fi

# exec: java becomes PID 1, so `docker stop` (SIGTERM) runs its shutdown hook, which closes the server or node.
exec "$java" "${flags[@]}" ${extra[@]+"${extra[@]}"} -jar "$jar" ${args[@]+"${args[@]}"}
