/**
 * The {@code rdma} fabric provider's entry points: {@link io.ferry.fabric.rdma.RdmaSupport#probe()} says whether
 * RDMA can run here, and {@link io.ferry.fabric.rdma.VerbsLoader} gives DiSNI the native library built from
 * {@code src/main/native} and packaged in the jar.
 */
package io.ferry.fabric.rdma;
