/*
 * Ferry's implementation of the JNI natives declared by DiSNI 2.1's
 * com.ibm.disni.verbs.impl.NativeDispatcher, written against rdma-core's
 * libibverbs and librdmacm. Shared helpers for the translation units.
 *
 * Conventions that hold for every native (they follow from DiSNI's Java callers):
 *  - DiSNI keeps native objects as "object ids" that are simply the C pointers
 *    (rdma_event_channel*, rdma_cm_id*, ibv_context*, ibv_pd*, ibv_cq*, ...),
 *    carried in a jlong. User-space pointers on x86-64 are below 2^47, so a valid
 *    id is always positive and the Java side treats a negative id as "none".
 *  - A native declared "throws IOException" reports failure by throwing an
 *    IOException whose message carries strerror text; its return value is then
 *    ignored by the JVM.
 *  - A native returning int without a throws clause reports failure as a negative
 *    value (-errno where an errno is known), because DiSNI only tests the sign.
 *  - Every handle is checked for NULL first: a Java caller that passes a closed or
 *    never-created object gets an error, not a segfault.
 */
#ifndef FERRY_DISNI_JNI_H
#define FERRY_DISNI_JNI_H

#include <jni.h>
#include <stdint.h>

/* The mangled name of NativeDispatcher's native "_<name>": the underscore that
 * starts each DiSNI method name is escaped as "_1" by the JNI naming rules. */
#define DISNI(name) Java_com_ibm_disni_verbs_impl_NativeDispatcher__1##name

/* DiSNI passes the receiver and sometimes the class; most natives do not need them. */
#define UNUSED __attribute__((unused))

#define HIDDEN __attribute__((visibility("hidden")))

/* jlong <-> pointer without implementation-defined warnings. */
#define PTR(type, id) ((type *)(uintptr_t)(id))
#define ID(ptr) ((jlong)(uintptr_t)(ptr))

/*
 * Throws java.io.IOException("<what>: <strerror(err)> (errno <err>)"), or just
 * "<what>" when err is 0. Does nothing if an exception is already pending, so the
 * first (most specific) error wins.
 */
HIDDEN void disni_throw(JNIEnv *env, int err, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Negative errno for natives that report failure through an int. Never 0. */
HIDDEN int disni_neg_errno(int err);

#endif
