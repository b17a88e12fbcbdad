/**
 * Ferry code that uses DiSNI's types. Every class here is defined by {@link io.ferry.fabric.rdma.VerbsLoader}, never
 * by the application class loader: only that loader's copy of DiSNI can find the libdisni packaged in Ferry's jar.
 * Reach these classes through {@link io.ferry.fabric.rdma.VerbsLoader#newInstance} and interfaces the parent loader
 * owns (such as {@code io.ferry.fabric.Fabric}), never by a direct reference from outside this package.
 */
package io.ferry.fabric.rdma.verbs;
