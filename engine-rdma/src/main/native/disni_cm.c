/*
 * Connection-manager natives of DiSNI 2.1's NativeDispatcher (librdmacm).
 * Semantics are taken from DiSNI's callers in com.ibm.disni.verbs.impl.RdmaCmNat
 * and NatCmaIdPrivate; see disni_jni.h for the conventions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>

#include <rdma/rdma_cma.h>

#include "disni_jni.h"
#include "disni_layout.h"

/* _getCmEvent results besides an event type (types are >= 0). */
#define CM_NO_EVENT (-1) /* the timeout passed, or the event was taken by another thread */
#define CM_FAILED (-2)   /* bad channel or a failed poll/read; errno is not preserved */

/* Switches a channel's descriptor to non-blocking. The natives only read it after
 * poll() reported it readable, but a second thread polling the same channel could
 * take the event first; non-blocking turns that race into EAGAIN instead of an
 * unbounded block inside librdmacm/libibverbs. */
static int set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        return errno;
    }
    return 0;
}

JNIEXPORT jlong JNICALL DISNI(createEventChannel)(JNIEnv *env, jobject self UNUSED)
{
    struct rdma_event_channel *ch = rdma_create_event_channel();
    if (ch == NULL) {
        disni_throw(env, errno, "rdma_create_event_channel failed (is rdma_ucm loaded and /dev/infiniband/rdma_cm accessible?)");
        return -1;
    }
    int err = set_nonblocking(ch->fd);
    if (err != 0) {
        rdma_destroy_event_channel(ch);
        disni_throw(env, err, "cannot make the CM event channel non-blocking");
        return -1;
    }
    return ID(ch);
}

/* ps: the RDMA port space (RdmaCm.RDMA_PS_TCP = 0x0106 etc., same numbers as C). */
JNIEXPORT jlong JNICALL DISNI(createId)(JNIEnv *env, jobject self UNUSED, jlong channel, jshort ps)
{
    struct rdma_event_channel *ch = PTR(struct rdma_event_channel, channel);
    if (ch == NULL) {
        disni_throw(env, EINVAL, "rdma_create_id: no event channel");
        return -1;
    }
    struct rdma_cm_id *id = NULL;
    if (rdma_create_id(ch, &id, NULL, (enum rdma_port_space)(uint16_t)ps) != 0) {
        disni_throw(env, errno, "rdma_create_id(port space 0x%x) failed", (unsigned)(uint16_t)ps);
        return -1;
    }
    return ID(id);
}

/* Creates the id's queue pair and returns the ibv_qp (DiSNI's NatIbvQP id). */
JNIEXPORT jlong JNICALL DISNI(createQP)(JNIEnv *env, jobject self UNUSED, jlong cmId, jlong pd,
                                        jlong sendCq, jlong recvCq, jint qpType, jint maxSendWr,
                                        jint maxRecvWr, jint maxInline)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL || pd == 0 || sendCq == 0 || recvCq == 0) {
        disni_throw(env, EINVAL, "rdma_create_qp: id, protection domain or completion queue missing");
        return -1;
    }
    if (qpType != IBV_QPT_RC && qpType != IBV_QPT_UC && qpType != IBV_QPT_UD) {
        disni_throw(env, EINVAL, "rdma_create_qp: unsupported queue pair type %d", (int)qpType);
        return -1;
    }
    if (maxSendWr < 0 || maxRecvWr < 0 || maxInline < 0) {
        disni_throw(env, EINVAL, "rdma_create_qp: negative capacity (send %d, recv %d, inline %d)",
                    (int)maxSendWr, (int)maxRecvWr, (int)maxInline);
        return -1;
    }
    struct ibv_qp_init_attr attr;
    memset(&attr, 0, sizeof attr);
    attr.send_cq = PTR(struct ibv_cq, sendCq);
    attr.recv_cq = PTR(struct ibv_cq, recvCq);
    attr.qp_type = (enum ibv_qp_type)qpType;
    attr.cap.max_send_wr = (uint32_t)maxSendWr;
    attr.cap.max_recv_wr = (uint32_t)maxRecvWr;
    attr.cap.max_send_sge = DISNI_MAX_SGE;
    attr.cap.max_recv_sge = DISNI_MAX_SGE;
    attr.cap.max_inline_data = (uint32_t)maxInline;
    attr.sq_sig_all = 0; /* DiSNI sets IBV_SEND_SIGNALED per work request */
    if (rdma_create_qp(id, PTR(struct ibv_pd, pd), &attr) != 0) {
        disni_throw(env, errno, "rdma_create_qp(send %d, recv %d, inline %d) failed",
                    (int)maxSendWr, (int)maxRecvWr, (int)maxInline);
        return -1;
    }
    return ID(id->qp);
}

/* address: DiSNI's SockAddrIn buffer (sockaddr_in layout, network byte order). */
JNIEXPORT void JNICALL DISNI(bindAddr)(JNIEnv *env, jobject self UNUSED, jlong cmId, jlong address)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL || address == 0) {
        disni_throw(env, EINVAL, "rdma_bind_addr: id or address missing");
        return;
    }
    if (rdma_bind_addr(id, PTR(struct sockaddr, address)) != 0) {
        disni_throw(env, errno, "rdma_bind_addr failed");
    }
}

JNIEXPORT void JNICALL DISNI(listen)(JNIEnv *env, jobject self UNUSED, jlong cmId, jint backlog)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        disni_throw(env, EINVAL, "rdma_listen: no id");
        return;
    }
    if (rdma_listen(id, backlog) != 0) {
        disni_throw(env, errno, "rdma_listen(backlog %d) failed", (int)backlog);
    }
}

/* Starts asynchronous address resolution (completion arrives as a CM event within
 * timeoutMs). src may be 0: DiSNI 2.1 always passes 0 and lets the CM choose. */
JNIEXPORT void JNICALL DISNI(resolveAddr)(JNIEnv *env, jobject self UNUSED, jlong cmId, jlong src,
                                          jlong dst, jint timeoutMs)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL || dst == 0) {
        disni_throw(env, EINVAL, "rdma_resolve_addr: id or destination missing");
        return;
    }
    if (rdma_resolve_addr(id, PTR(struct sockaddr, src), PTR(struct sockaddr, dst), timeoutMs) != 0) {
        disni_throw(env, errno, "rdma_resolve_addr(timeout %d ms) failed", (int)timeoutMs);
    }
}

JNIEXPORT void JNICALL DISNI(resolveRoute)(JNIEnv *env, jobject self UNUSED, jlong cmId, jint timeoutMs)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        disni_throw(env, EINVAL, "rdma_resolve_route: no id");
        return;
    }
    if (rdma_resolve_route(id, timeoutMs) != 0) {
        disni_throw(env, errno, "rdma_resolve_route(timeout %d ms) failed", (int)timeoutMs);
    }
}

static void store_id(jlong out, const struct rdma_cm_id *id)
{
    if (out != 0) {
        uint64_t v = id != NULL ? (uint64_t)(uintptr_t)id : DISNI_CM_NO_ID;
        memcpy(PTR(void, out), &v, sizeof v);
    }
}

/*
 * Waits at most timeoutMs (poll(2) semantics: 0 only looks, a negative value waits
 * without limit, so Ferry never passes one) for one event on the channel. On an event,
 * writes the listening id and the event's id to the two out addresses and returns
 * the event type (RdmaCmEvent.EventType ordinal = enum rdma_cm_event_type).
 *
 * The event is acknowledged here, before returning. DiSNI's _ackCmEvent receives
 * only the event type, so there is no way to find the rdma_cm_event later; and an
 * unacknowledged event makes rdma_destroy_id block forever. DiSNI reads nothing
 * from the event besides the type and the two ids, which outlive the ack.
 */
JNIEXPORT jint JNICALL DISNI(getCmEvent)(JNIEnv *env UNUSED, jobject self UNUSED, jlong channel,
                                         jlong listenIdOut, jlong idOut, jint timeoutMs)
{
    struct rdma_event_channel *ch = PTR(struct rdma_event_channel, channel);
    if (ch == NULL) {
        return CM_FAILED;
    }
    struct pollfd pfd = { .fd = ch->fd, .events = POLLIN, .revents = 0 };
    int ready = poll(&pfd, 1, timeoutMs);
    if (ready == 0) {
        return CM_NO_EVENT;
    }
    if (ready < 0) {
        return errno == EINTR ? CM_NO_EVENT : CM_FAILED;
    }
    if (pfd.revents & (POLLERR | POLLNVAL)) {
        return CM_FAILED;
    }
    struct rdma_cm_event *ev = NULL;
    if (rdma_get_cm_event(ch, &ev) != 0) {
        return (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) ? CM_NO_EVENT : CM_FAILED;
    }
    jint type = (jint)ev->event;
    store_id(listenIdOut, ev->listen_id);
    store_id(idOut, ev->id);
    rdma_ack_cm_event(ev);
    return type;
}

/* retry counts are 3-bit fields in the CM protocol. */
static int valid_retry(jint n)
{
    return n >= 0 && n <= 7;
}

/*
 * Both sides ask for the largest number of outstanding RDMA READs the devices
 * allow (RDMA_MAX_*: librdmacm substitutes the device limit on connect and the
 * minimum of that and the peer's request on accept). With DiSNI's original choice
 * of max_qp_rd_atom for both, a device whose initiator limit is lower than its
 * responder limit rejects the connection with EINVAL; with 0, READs cannot run at
 * all, and READ is Ferry's main operation.
 */
static void fill_conn_param(struct rdma_conn_param *p, jint retry, jint rnrRetry)
{
    memset(p, 0, sizeof *p);
    p->responder_resources = RDMA_MAX_RESP_RES;
    p->initiator_depth = RDMA_MAX_INIT_DEPTH;
    p->flow_control = 1;
    p->retry_count = (uint8_t)retry;
    p->rnr_retry_count = (uint8_t)rnrRetry;
}

JNIEXPORT void JNICALL DISNI(connect)(JNIEnv *env, jobject self UNUSED, jlong cmId, jint retry,
                                      jint rnrRetry, jlong privateData, jbyte privateDataLen)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    /* The length arrives as a signed Java byte; the CM field is unsigned. */
    uint8_t len = (uint8_t)privateDataLen;
    if (id == NULL) {
        disni_throw(env, EINVAL, "rdma_connect: no id");
        return;
    }
    if (!valid_retry(retry) || !valid_retry(rnrRetry)) {
        disni_throw(env, EINVAL, "rdma_connect: retry counts must lie in 0..7 (got %d, %d)",
                    (int)retry, (int)rnrRetry);
        return;
    }
    if (privateData == 0 && len != 0) {
        disni_throw(env, EINVAL, "rdma_connect: %u bytes of private data at address 0", (unsigned)len);
        return;
    }
    struct rdma_conn_param param;
    fill_conn_param(&param, retry, rnrRetry);
    param.private_data = PTR(const void, privateData);
    param.private_data_len = len;
    if (rdma_connect(id, &param) != 0) {
        disni_throw(env, errno, "rdma_connect failed");
    }
}

JNIEXPORT void JNICALL DISNI(accept)(JNIEnv *env, jobject self UNUSED, jlong cmId, jint retry, jint rnrRetry)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        disni_throw(env, EINVAL, "rdma_accept: no id");
        return;
    }
    if (!valid_retry(retry) || !valid_retry(rnrRetry)) {
        disni_throw(env, EINVAL, "rdma_accept: retry counts must lie in 0..7 (got %d, %d)",
                    (int)retry, (int)rnrRetry);
        return;
    }
    struct rdma_conn_param param;
    fill_conn_param(&param, retry, rnrRetry);
    if (rdma_accept(id, &param) != 0) {
        disni_throw(env, errno, "rdma_accept failed");
    }
}

/* Events are acknowledged inside _getCmEvent (see there); nothing is left to do. */
JNIEXPORT jint JNICALL DISNI(ackCmEvent)(JNIEnv *env UNUSED, jobject self UNUSED, jint eventType UNUSED)
{
    return 0;
}

JNIEXPORT jint JNICALL DISNI(disconnect)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        return -EINVAL;
    }
    return rdma_disconnect(id) == 0 ? 0 : disni_neg_errno(errno);
}

JNIEXPORT jint JNICALL DISNI(destroyEventChannel)(JNIEnv *env UNUSED, jobject self UNUSED, jlong channel)
{
    struct rdma_event_channel *ch = PTR(struct rdma_event_channel, channel);
    if (ch == NULL) {
        return -EINVAL;
    }
    rdma_destroy_event_channel(ch);
    return 0;
}

/* rdma_destroy_id waits until every event reported for the id has been
 * acknowledged; _getCmEvent acknowledges at once, so this cannot hang. */
JNIEXPORT jint JNICALL DISNI(destroyCmId)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        return -EINVAL;
    }
    return rdma_destroy_id(id) == 0 ? 0 : disni_neg_errno(errno);
}

/* Takes the cm id (RdmaCmNat.destroyQP passes the id, not the QP). */
JNIEXPORT jint JNICALL DISNI(destroyQP)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL || id->qp == NULL) {
        return -EINVAL;
    }
    rdma_destroy_qp(id);
    return 0;
}

/* Copies the id's address into DiSNI's SockAddrIn buffer. Only IPv4 is reported:
 * SockAddrIn.update decodes family/port/IPv4 address and nothing else. */
static jint copy_address(jlong out, const struct sockaddr *sa)
{
    if (out == 0 || sa == NULL) {
        return -EINVAL;
    }
    if (sa->sa_family != AF_INET) {
        return -EAFNOSUPPORT;
    }
    memcpy(PTR(void, out), sa, sizeof(struct sockaddr_in));
    return 0;
}

JNIEXPORT jint JNICALL DISNI(getSrcAddr)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId, jlong out)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    return id == NULL ? -EINVAL : copy_address(out, rdma_get_local_addr(id));
}

JNIEXPORT jint JNICALL DISNI(getDstAddr)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId, jlong out)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    return id == NULL ? -EINVAL : copy_address(out, rdma_get_peer_addr(id));
}

/* Destroys the id together with its queue pair (rdma_destroy_ep). */
JNIEXPORT jint JNICALL DISNI(destroyEp)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cmId)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        return -EINVAL;
    }
    rdma_destroy_ep(id);
    return 0;
}

/* The device context the id is bound to, or -1 while it is not bound to a device
 * yet (NatCmaIdPrivate.getVerbs then leaves its context unset, as DiSNI expects). */
JNIEXPORT jlong JNICALL DISNI(getContext)(JNIEnv *env, jobject self UNUSED, jlong cmId)
{
    struct rdma_cm_id *id = PTR(struct rdma_cm_id, cmId);
    if (id == NULL) {
        disni_throw(env, EINVAL, "getContext: no id");
        return -1;
    }
    return id->verbs != NULL ? ID(id->verbs) : -1;
}
