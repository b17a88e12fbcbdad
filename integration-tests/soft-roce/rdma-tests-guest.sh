#!/usr/bin/env bash
# Inside the soft-RoCE VM (see rdma-tests.sh): run the rdma tests on rxe0 with the host's JDK.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
module="$root/engine-rdma/target"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
exec "$java" --add-opens=java.base/java.nio=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED -Darrow.enable_unsafe_memory_access=true \
  -Dio.netty.tryReflectionSetAccessible=true -Xmx512m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -Dferry.rdma.host="${FERRY_SOFT_ROCE_ADDR:-192.168.77.1}" \
  -cp "$module/test-classes:$module/classes:$(cat "$module/rdma-test-classpath.txt")" \
  io.ferry.fabric.RdmaTestRunner
