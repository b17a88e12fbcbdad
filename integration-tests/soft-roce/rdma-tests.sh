#!/usr/bin/env bash
# Runs the rdma fabric's tests against a real soft-RoCE device: boots the VM of run-in-vm.sh and, inside it,
# runs io.ferry.fabric.RdmaTestRunner (RdmaFabricTest: the provider contract; RdmaFabricProcessTest: a serving
# JVM read one-sidedly and killed mid-stream), then io.ferry.server.cluster.RdmaClusterCheck (a three-way join on
# two memory servers holding two copies of every block and two compute servers over rdma, gathered, pipelined and
# shuffled, against DuckDB; then the coordinator restarted over the memory servers that kept its blocks, adopting
# them; then each memory server stopped in turn, the other answering, the first caught up in between). Prints each
# runner's "N passed, N failed" line and exits non-zero unless every test passed; RDMA being unavailable in the
# guest is a failure, never a skip.
#
# Needs engine-rdma and engine-server built with their tests compiled (mvn verify, or test-compile -pl
# engine-server -am) and root.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
module="$root/engine-rdma"
cd "$root"

if [ ! -d "$module/target/test-classes" ] || [ ! -d "$module/target/classes" ]; then
  echo "rdma-tests: build first: mvn -B test-compile -pl engine-rdma -am" >&2
  exit 2
fi
if ! find "$module/target/classes" -name libdisni.so | grep -q .; then
  echo "rdma-tests: engine-rdma was built without libdisni (install libibverbs-dev librdmacm-dev, rebuild)" >&2
  exit 2
fi

# The guest runs no Maven: the build wrote the test class paths for it (engine-rdma's and engine-server's poms).
if [ ! -f "$root/engine-server/target/rdma-cluster-classpath.txt" ] || [ ! -d "$root/engine-server/target/test-classes" ]; then
  echo "rdma-tests: engine-server's tests are not built: mvn -B test-compile -pl engine-server -am" >&2
  exit 2
fi
if [ ! -f "$module/target/rdma-test-classpath.txt" ]; then
  echo "rdma-tests: $module/target/rdma-test-classpath.txt is missing: build with mvn test-compile first" >&2
  exit 2
fi

"$here/run-in-vm.sh" --timeout "${FERRY_RDMA_TEST_TIMEOUT:-900}" -- "$here/rdma-tests-guest.sh"
