/* Error reporting shared by the DiSNI natives (see disni_jni.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "disni_jni.h"

void disni_throw(JNIEnv *env, int err, const char *fmt, ...)
{
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    /* Fixed-size buffers: messages are short, and allocating on an error path
     * that may itself be caused by memory exhaustion is best avoided. */
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);

    char msg[400];
    if (err != 0) {
        char ebuf[128];
        /* GNU strerror_r: thread-safe, returns a pointer that may or may not be ebuf. */
        const char *text = strerror_r(err, ebuf, sizeof ebuf);
        snprintf(msg, sizeof msg, "%s: %s (errno %d)", what, text, err);
    } else {
        snprintf(msg, sizeof msg, "%s", what);
    }

    /* The class is looked up through the loader of NativeDispatcher, which delegates
     * java.* to the boot loader, so this cannot pick up a foreign IOException. */
    jclass cls = (*env)->FindClass(env, "java/io/IOException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, msg);
        (*env)->DeleteLocalRef(env, cls);
    }
    /* If FindClass failed, it has already left a NoClassDefFoundError pending. */
}

int disni_neg_errno(int err)
{
    return err > 0 ? -err : -EIO;
}
