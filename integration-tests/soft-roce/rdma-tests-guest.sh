#!/usr/bin/env bash
# Inside the soft-RoCE VM (see rdma-tests.sh): run the rdma tests on rxe0 with the host's JDK — the fabric's
# (RdmaTestRunner), then a distributed three-way join over rdma and a coordinator restart that adopts its blocks
# (RdmaClusterCheck). Exits non-zero if either fails.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
flags=(--add-opens=java.base/java.nio=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
  -Darrow.enable_unsafe_memory_access=true -Dio.netty.tryReflectionSetAccessible=true -XX:+UseSerialGC
  -XX:TieredStopAtLevel=1 -Dferry.rdma.host="${FERRY_SOFT_ROCE_ADDR:-192.168.77.1}")
rdma="$root/engine-rdma/target"
"$java" "${flags[@]}" -Xmx512m \
  -cp "$rdma/test-classes:$rdma/classes:$(cat "$rdma/rdma-test-classpath.txt")" io.ferry.fabric.RdmaTestRunner
fabric=$?
server="$root/engine-server/target"
"$java" "${flags[@]}" -Xmx1g -XX:MaxDirectMemorySize=1g \
  -cp "$server/test-classes:$server/classes:$(cat "$server/rdma-cluster-classpath.txt")" \
  io.ferry.server.cluster.RdmaClusterCheck
cluster=$?
[ "$fabric" = 0 ] && [ "$cluster" = 0 ]
