/*
 * Verbs natives of DiSNI 2.1's NativeDispatcher (libibverbs). Semantics are taken
 * from DiSNI's callers in com.ibm.disni.verbs.impl (RdmaVerbsNat, NatRegMrCall,
 * NatPostSendCall, NatPostRecvCall, NatPollCqCall, NatReqNotifyCall, NatGetCqCall,
 * NatDeregMrCall, NatIbvContext, NatIbvPd, NatIbvQP); see disni_jni.h for the
 * conventions.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include <infiniband/verbs.h>

#include "disni_jni.h"
#include "disni_layout.h"

/* Send lists up to this length are translated on the stack (16 x 128 bytes). */
#define STACK_SEND_WRS 16

JNIEXPORT jlong JNICALL DISNI(allocPd)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        disni_throw(env, EINVAL, "ibv_alloc_pd: no device context");
        return -1;
    }
    struct ibv_pd *pd = ibv_alloc_pd(ctx);
    if (pd == NULL) {
        disni_throw(env, errno, "ibv_alloc_pd failed");
        return -1;
    }
    return ID(pd);
}

/* The channel's descriptor is made non-blocking for the same reason as the CM
 * channel's (disni_cm.c): _getCqEvent reads it only after poll(), and a racing
 * reader must get EAGAIN rather than block without a bound. */
JNIEXPORT jlong JNICALL DISNI(createCompChannel)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        disni_throw(env, EINVAL, "ibv_create_comp_channel: no device context");
        return -1;
    }
    struct ibv_comp_channel *ch = ibv_create_comp_channel(ctx);
    if (ch == NULL) {
        disni_throw(env, errno, "ibv_create_comp_channel failed");
        return -1;
    }
    int flags = fcntl(ch->fd, F_GETFL);
    if (flags < 0 || fcntl(ch->fd, F_SETFL, flags | O_NONBLOCK) < 0) {
        int err = errno;
        ibv_destroy_comp_channel(ch);
        disni_throw(env, err, "cannot make the completion channel non-blocking");
        return -1;
    }
    return ID(ch);
}

JNIEXPORT jlong JNICALL DISNI(createCQ)(JNIEnv *env, jobject self UNUSED, jlong context, jlong channel,
                                        jint entries, jint compVector)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        disni_throw(env, EINVAL, "ibv_create_cq: no device context");
        return -1;
    }
    if (entries <= 0 || compVector < 0) {
        disni_throw(env, EINVAL, "ibv_create_cq: %d entries on completion vector %d", (int)entries,
                    (int)compVector);
        return -1;
    }
    struct ibv_cq *cq = ibv_create_cq(ctx, entries, NULL, PTR(struct ibv_comp_channel, channel), compVector);
    if (cq == NULL) {
        disni_throw(env, errno, "ibv_create_cq(%d entries, vector %d) failed", (int)entries, (int)compVector);
        return -1;
    }
    return ID(cq);
}

/*
 * DiSNI 2.1's RdmaVerbsNat.modifyQP always passes 0 for the attributes and has no
 * way to pass an attribute mask; its original library called ibv_modify_qp with an
 * uninitialised mask. Connection setup through the CM moves the queue pair through
 * its states by itself, so there is nothing meaningful to modify: with no
 * attributes this queries the queue pair and returns its state (IbvQP.IBV_QPS_*,
 * >= 0, which DiSNI reads as success); anything else is refused.
 */
JNIEXPORT jint JNICALL DISNI(modifyQP)(JNIEnv *env, jobject self UNUSED, jlong qpId, jlong attrs)
{
    struct ibv_qp *qp = PTR(struct ibv_qp, qpId);
    if (qp == NULL) {
        disni_throw(env, EINVAL, "modifyQP: no queue pair");
        return -1;
    }
    if (attrs != 0) {
        disni_throw(env, EOPNOTSUPP, "modifyQP: attribute buffers are not supported (DiSNI 2.1 passes none)");
        return -1;
    }
    struct ibv_qp_attr attr;
    struct ibv_qp_init_attr init;
    memset(&attr, 0, sizeof attr);
    memset(&init, 0, sizeof init);
    int rc = ibv_query_qp(qp, &attr, IBV_QP_STATE, &init);
    if (rc != 0) {
        disni_throw(env, rc, "ibv_query_qp failed");
        return -1;
    }
    return (jint)attr.qp_state;
}

/*
 * Registers [address, address + length) and writes the keys into DiSNI's 12-byte
 * command buffer: lkey at lkeyOut, rkey at rkeyOut, the kernel handle at
 * handleOut (NatRegMrCall reads three ints in that order). Returns the ibv_mr.
 * The length is a Java int, so one region is under 2 GiB (DiSNI issue #39).
 */
JNIEXPORT jlong JNICALL DISNI(regMr)(JNIEnv *env, jobject self UNUSED, jlong pdId, jlong address, jint length,
                                     jint access, jlong lkeyOut, jlong rkeyOut, jlong handleOut)
{
    struct ibv_pd *pd = PTR(struct ibv_pd, pdId);
    if (pd == NULL) {
        disni_throw(env, EINVAL, "ibv_reg_mr: no protection domain");
        return -1;
    }
    if (length < 0 || (address == 0 && length > 0)) {
        disni_throw(env, EINVAL, "ibv_reg_mr: invalid range of %d bytes at 0x%llx", (int)length,
                    (unsigned long long)address);
        return -1;
    }
    if (lkeyOut == 0 || rkeyOut == 0 || handleOut == 0) {
        disni_throw(env, EINVAL, "ibv_reg_mr: missing output address for the keys");
        return -1;
    }
    struct ibv_mr *mr = ibv_reg_mr(pd, PTR(void, address), (size_t)length, access);
    if (mr == NULL) {
        disni_throw(env, errno, "ibv_reg_mr(%d bytes at 0x%llx, access 0x%x) failed", (int)length,
                    (unsigned long long)address, (unsigned)access);
        return -1;
    }
    uint32_t lkey = mr->lkey, rkey = mr->rkey, handle = mr->handle;
    memcpy(PTR(void, lkeyOut), &lkey, sizeof lkey);
    memcpy(PTR(void, rkeyOut), &rkey, sizeof rkey);
    memcpy(PTR(void, handleOut), &handle, sizeof handle);
    return ID(mr);
}

/* On-demand paging: the RC capability bits (enum ibv_odp_transport_cap_bits) if the
 * device supports ODP, else -1. DiSNI declares no exception here. */
JNIEXPORT jint JNICALL DISNI(queryOdpSupport)(JNIEnv *env UNUSED, jobject self UNUSED, jlong context)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        return -1;
    }
    struct ibv_device_attr_ex attr;
    memset(&attr, 0, sizeof attr);
    if (ibv_query_device_ex(ctx, NULL, &attr) != 0) {
        return -1;
    }
    if (!(attr.odp_caps.general_caps & IBV_ODP_SUPPORT)) {
        return -1;
    }
    return (jint)attr.odp_caps.per_transport_caps.rc_odp_caps;
}

/*
 * Prefetches pages of an on-demand-paging region for writing. DiSNI's original
 * library used the Mellanox-OFED-only ibv_exp_prefetch_mr; rdma-core's equivalent
 * is ibv_advise_mr (synchronous with IBV_ADVISE_MR_FLAG_FLUSH). Returns 0.
 */
JNIEXPORT jint JNICALL DISNI(expPrefetchMr)(JNIEnv *env, jobject self UNUSED, jlong mrId, jlong address,
                                            jint length)
{
    struct ibv_mr *mr = PTR(struct ibv_mr, mrId);
    if (mr == NULL) {
        disni_throw(env, EINVAL, "prefetch: no memory region");
        return -1;
    }
    if (length < 0) {
        disni_throw(env, EINVAL, "prefetch: negative length %d", (int)length);
        return -1;
    }
    struct ibv_sge sge = { .addr = (uint64_t)address, .length = (uint32_t)length, .lkey = mr->lkey };
    int rc = ibv_advise_mr(mr->pd, IBV_ADVISE_MR_ADVICE_PREFETCH_WRITE, IBV_ADVISE_MR_FLAG_FLUSH, &sge, 1);
    if (rc != 0) {
        disni_throw(env, rc, "ibv_advise_mr(prefetch %d bytes) failed", (int)length);
        return -1;
    }
    return 0;
}

JNIEXPORT void JNICALL DISNI(deregMr)(JNIEnv *env, jobject self UNUSED, jlong mrId)
{
    struct ibv_mr *mr = PTR(struct ibv_mr, mrId);
    if (mr == NULL) {
        disni_throw(env, EINVAL, "ibv_dereg_mr: no memory region");
        return;
    }
    int rc = ibv_dereg_mr(mr);
    if (rc != 0) {
        disni_throw(env, rc, "ibv_dereg_mr failed");
    }
}

static const unsigned char *next_send_record(const unsigned char *rec)
{
    uint64_t next;
    memcpy(&next, rec + DISNI_SEND_WR_NEXT_OFFSET, sizeof next);
    return (const unsigned char *)(uintptr_t)next;
}

/* The number of records in DiSNI's send list, or 0 if it is longer than
 * DISNI_MAX_WR_CHAIN (a corrupt or cyclic chain). */
static size_t count_send_records(const unsigned char *list)
{
    size_t n = 0;
    for (const unsigned char *rec = list; rec != NULL; rec = next_send_record(rec)) {
        if (++n > DISNI_MAX_WR_CHAIN) {
            return 0;
        }
    }
    return n;
}

/*
 * Copies n records into wrs: each 72-byte record is the prefix of struct
 * ibv_send_wr (disni_abi.c), so it lands in a zeroed full-size struct, and the
 * copies are relinked to each other. The provider then never reads past DiSNI's
 * records, and the fields DiSNI cannot express (xrc, bind_mw, tso) are zero. The
 * scatter/gather arrays are C layout already and stay where DiSNI wrote them.
 */
static void translate_send_records(const unsigned char *list, struct ibv_send_wr *wrs, size_t n)
{
    const unsigned char *rec = list;
    for (size_t i = 0; i < n; i++, rec = next_send_record(rec)) {
        memset(&wrs[i], 0, sizeof wrs[i]);
        memcpy(&wrs[i], rec, DISNI_SEND_WR_SIZE);
        wrs[i].next = i + 1 < n ? &wrs[i + 1] : NULL;
    }
}

/*
 * Posts DiSNI's send list: list is the address of the first 72-byte record, the
 * records are linked by absolute next pointers (the last is 0) and point at
 * DiSNI-written ibv_sge arrays. They are translated first (see above); the copies
 * can go as soon as ibv_post_send returns, which has consumed them by then.
 */
JNIEXPORT void JNICALL DISNI(postSend)(JNIEnv *env, jobject self UNUSED, jlong qpId, jlong list)
{
    struct ibv_qp *qp = PTR(struct ibv_qp, qpId);
    if (qp == NULL || list == 0) {
        disni_throw(env, EINVAL, "ibv_post_send: queue pair or work request list missing");
        return;
    }
    size_t n = count_send_records(PTR(const unsigned char, list));
    if (n == 0) {
        disni_throw(env, EINVAL, "ibv_post_send: work request list longer than %d (a cycle?)", DISNI_MAX_WR_CHAIN);
        return;
    }
    struct ibv_send_wr on_stack[STACK_SEND_WRS];
    struct ibv_send_wr *wrs = n <= STACK_SEND_WRS ? on_stack : calloc(n, sizeof *wrs);
    if (wrs == NULL) {
        disni_throw(env, ENOMEM, "ibv_post_send: cannot translate %zu work requests", n);
        return;
    }
    translate_send_records(PTR(const unsigned char, list), wrs, n);
    struct ibv_send_wr *bad = NULL;
    int rc = ibv_post_send(qp, wrs, &bad);
    if (rc != 0) {
        long at = (bad != NULL && bad >= wrs && bad < wrs + n) ? (long)(bad - wrs) : -1;
        disni_throw(env, rc, "ibv_post_send failed at work request %ld of %zu (opcode %d)", at, n,
                    at >= 0 ? (int)wrs[at].opcode : -1);
    }
    if (wrs != on_stack) {
        free(wrs);
    }
}

/*
 * io.ferry.fabric.rdma.verbs.SendWorkRequests: the translation above, exposed so
 * it can be checked against DiSNI's serialiser on machines without an RDMA device.
 * Not part of DiSNI's interface.
 */
JNIEXPORT jint JNICALL Java_io_ferry_fabric_rdma_verbs_SendWorkRequests_structSize(JNIEnv *env UNUSED,
                                                                                  jclass cls UNUSED)
{
    return (jint)sizeof(struct ibv_send_wr);
}

/* Writes the translation of list into out (room for capacity structs). Returns the
 * number of work requests, -1 for a list that is too long, -2 if out is too small,
 * -EINVAL for a missing address. */
JNIEXPORT jint JNICALL Java_io_ferry_fabric_rdma_verbs_SendWorkRequests_translate(JNIEnv *env UNUSED,
                                                                                 jclass cls UNUSED, jlong list,
                                                                                 jlong out, jint capacity)
{
    if (list == 0 || out == 0 || capacity < 0) {
        return -EINVAL;
    }
    size_t n = count_send_records(PTR(const unsigned char, list));
    if (n == 0) {
        return -1;
    }
    if (n > (size_t)capacity) {
        return -2;
    }
    translate_send_records(PTR(const unsigned char, list), PTR(struct ibv_send_wr, out), n);
    return (jint)n;
}

/* DiSNI's receive records are real struct ibv_recv_wr (disni_abi.c): posted as they are. */
JNIEXPORT void JNICALL DISNI(postRecv)(JNIEnv *env, jobject self UNUSED, jlong qpId, jlong list)
{
    struct ibv_qp *qp = PTR(struct ibv_qp, qpId);
    struct ibv_recv_wr *wrs = PTR(struct ibv_recv_wr, list);
    if (qp == NULL || wrs == NULL) {
        disni_throw(env, EINVAL, "ibv_post_recv: queue pair or work request list missing");
        return;
    }
    struct ibv_recv_wr *bad = NULL;
    int rc = ibv_post_recv(qp, wrs, &bad);
    if (rc != 0) {
        long at = 0;
        for (struct ibv_recv_wr *w = wrs; w != NULL && w != bad && at < DISNI_MAX_WR_CHAIN; w = w->next) {
            at++;
        }
        disni_throw(env, rc, "ibv_post_recv failed at work request %ld", bad != NULL ? at : -1L);
    }
}

/*
 * Waits at most timeoutMs (poll(2) semantics, as in _getCmEvent) for a
 * completion event on the channel. Returns 0 when one was consumed (the caller must
 * acknowledge it with _ackCqEvent on its CQ, or ibv_destroy_cq will block), -1 when
 * none arrived in time. Real failures throw.
 */
JNIEXPORT jint JNICALL DISNI(getCqEvent)(JNIEnv *env, jobject self UNUSED, jlong channel, jint timeoutMs)
{
    struct ibv_comp_channel *ch = PTR(struct ibv_comp_channel, channel);
    if (ch == NULL) {
        disni_throw(env, EINVAL, "ibv_get_cq_event: no completion channel");
        return -1;
    }
    struct pollfd pfd = { .fd = ch->fd, .events = POLLIN, .revents = 0 };
    int ready = poll(&pfd, 1, timeoutMs);
    if (ready == 0) {
        return -1;
    }
    if (ready < 0) {
        if (errno == EINTR) {
            return -1;
        }
        disni_throw(env, errno, "poll on the completion channel failed");
        return -1;
    }
    if (pfd.revents & (POLLERR | POLLNVAL)) {
        disni_throw(env, EIO, "completion channel descriptor reported an error (revents 0x%x)",
                    (unsigned)pfd.revents);
        return -1;
    }
    struct ibv_cq *cq = NULL;
    void *cq_context = NULL;
    if (ibv_get_cq_event(ch, &cq, &cq_context) != 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return -1;
        }
        disni_throw(env, errno, "ibv_get_cq_event failed");
        return -1;
    }
    return 0;
}

/*
 * Polls up to maxEntries completions into DiSNI's buffer at wcList (an array of
 * struct ibv_wc owned by the caller; NatPollCqCall sizes it and frees it). Returns
 * the number written. ibv_poll_cq reports failure as a negative value whose meaning
 * is provider-specific and sets no errno, so the message carries that value.
 */
JNIEXPORT jint JNICALL DISNI(pollCQ)(JNIEnv *env, jobject self UNUSED, jlong cqId, jint maxEntries, jlong wcList)
{
    struct ibv_cq *cq = PTR(struct ibv_cq, cqId);
    if (cq == NULL) {
        disni_throw(env, EINVAL, "ibv_poll_cq: no completion queue");
        return -1;
    }
    if (maxEntries < 0 || (maxEntries > 0 && wcList == 0)) {
        disni_throw(env, EINVAL, "ibv_poll_cq: no room for %d completions", (int)maxEntries);
        return -1;
    }
    int n = ibv_poll_cq(cq, maxEntries, PTR(struct ibv_wc, wcList));
    if (n < 0) {
        disni_throw(env, 0, "ibv_poll_cq failed: the provider returned %d (the queue is in error or was overrun)", n);
        return -1;
    }
    return n;
}

JNIEXPORT jint JNICALL DISNI(reqNotifyCQ)(JNIEnv *env, jobject self UNUSED, jlong cqId, jint solicitedOnly)
{
    struct ibv_cq *cq = PTR(struct ibv_cq, cqId);
    if (cq == NULL) {
        disni_throw(env, EINVAL, "ibv_req_notify_cq: no completion queue");
        return -1;
    }
    int rc = ibv_req_notify_cq(cq, solicitedOnly != 0);
    if (rc != 0) {
        disni_throw(env, rc, "ibv_req_notify_cq failed");
    }
    return rc;
}

JNIEXPORT jint JNICALL DISNI(ackCqEvent)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cqId, jint events)
{
    struct ibv_cq *cq = PTR(struct ibv_cq, cqId);
    if (cq == NULL || events < 0) {
        return -EINVAL;
    }
    ibv_ack_cq_events(cq, (unsigned)events);
    return 0;
}

/* The destroy natives return 0 or -errno: DiSNI declares no exception for them and
 * hands the number to its caller. The verbs calls return the errno value itself. */
JNIEXPORT jint JNICALL DISNI(destroyCompChannel)(JNIEnv *env UNUSED, jobject self UNUSED, jlong channel)
{
    struct ibv_comp_channel *ch = PTR(struct ibv_comp_channel, channel);
    if (ch == NULL) {
        return -EINVAL;
    }
    int rc = ibv_destroy_comp_channel(ch);
    return rc == 0 ? 0 : disni_neg_errno(rc);
}

JNIEXPORT jint JNICALL DISNI(deallocPd)(JNIEnv *env UNUSED, jobject self UNUSED, jlong pdId)
{
    struct ibv_pd *pd = PTR(struct ibv_pd, pdId);
    if (pd == NULL) {
        return -EINVAL;
    }
    int rc = ibv_dealloc_pd(pd);
    return rc == 0 ? 0 : disni_neg_errno(rc);
}

JNIEXPORT jint JNICALL DISNI(destroyCQ)(JNIEnv *env UNUSED, jobject self UNUSED, jlong cqId)
{
    struct ibv_cq *cq = PTR(struct ibv_cq, cqId);
    if (cq == NULL) {
        return -EINVAL;
    }
    int rc = ibv_destroy_cq(cq);
    return rc == 0 ? 0 : disni_neg_errno(rc);
}

JNIEXPORT jint JNICALL DISNI(getQpNum)(JNIEnv *env, jobject self UNUSED, jlong qpId)
{
    struct ibv_qp *qp = PTR(struct ibv_qp, qpId);
    if (qp == NULL) {
        disni_throw(env, EINVAL, "getQpNum: no queue pair");
        return -1;
    }
    return (jint)qp->qp_num;
}

JNIEXPORT jint JNICALL DISNI(getContextFd)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        disni_throw(env, EINVAL, "getContextFd: no device context");
        return -1;
    }
    return ctx->cmd_fd;
}

JNIEXPORT jint JNICALL DISNI(getContextNumCompVectors)(JNIEnv *env, jobject self UNUSED, jlong context)
{
    struct ibv_context *ctx = PTR(struct ibv_context, context);
    if (ctx == NULL) {
        disni_throw(env, EINVAL, "getContextNumCompVectors: no device context");
        return -1;
    }
    return ctx->num_comp_vectors;
}

JNIEXPORT jint JNICALL DISNI(getPdHandle)(JNIEnv *env, jobject self UNUSED, jlong pdId)
{
    struct ibv_pd *pd = PTR(struct ibv_pd, pdId);
    if (pd == NULL) {
        disni_throw(env, EINVAL, "getPdHandle: no protection domain");
        return -1;
    }
    return (jint)pd->handle;
}

/*
 * io.ferry.fabric.rdma.verbs.AtomicWorkRequests.post: one signalled atomic work
 * request on an 8-byte word, its old value landing at localAddr (8 bytes of a
 * memory region with lkey). DiSNI 2.1 cannot post these: NatIbvSendWR writes only
 * the rdma member of the work request's union, not the atomic one (remote_addr,
 * compare_add, swap, rkey), so Ferry fills a struct ibv_send_wr here. cmpAndSwap
 * selects IBV_WR_ATOMIC_CMP_AND_SWP (compareAdd is the expected value, swap the
 * new one), else IBV_WR_ATOMIC_FETCH_AND_ADD (compareAdd is the delta). The target
 * region must be registered with IBV_ACCESS_REMOTE_ATOMIC.
 */
JNIEXPORT void JNICALL Java_io_ferry_fabric_rdma_verbs_AtomicWorkRequests_post(JNIEnv *env, jclass cls UNUSED,
                                                                             jlong qpId, jlong wrId,
                                                                             jboolean cmpAndSwap, jlong localAddr,
                                                                             jint lkey, jlong remoteAddr, jint rkey,
                                                                             jlong compareAdd, jlong swap)
{
    struct ibv_qp *qp = PTR(struct ibv_qp, qpId);
    if (qp == NULL || localAddr == 0 || remoteAddr == 0) {
        disni_throw(env, EINVAL, "ibv_post_send: an atomic needs a queue pair, a local and a remote address");
        return;
    }
    if ((remoteAddr & 7) != 0 || (localAddr & 7) != 0) {
        disni_throw(env, EINVAL, "ibv_post_send: an atomic needs 8-byte-aligned words (remote 0x%llx, local 0x%llx)",
                    (unsigned long long)remoteAddr, (unsigned long long)localAddr);
        return;
    }
    struct ibv_sge sge;
    memset(&sge, 0, sizeof sge);
    sge.addr = (uint64_t)localAddr;
    sge.length = 8;
    sge.lkey = (uint32_t)lkey;
    struct ibv_send_wr wr;
    memset(&wr, 0, sizeof wr);
    wr.wr_id = (uint64_t)wrId;
    wr.sg_list = &sge;
    wr.num_sge = 1;
    wr.opcode = cmpAndSwap ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
    wr.send_flags = IBV_SEND_SIGNALED;
    wr.wr.atomic.remote_addr = (uint64_t)remoteAddr;
    wr.wr.atomic.compare_add = (uint64_t)compareAdd;
    wr.wr.atomic.swap = (uint64_t)swap;
    wr.wr.atomic.rkey = (uint32_t)rkey;
    struct ibv_send_wr *bad = NULL;
    int rc = ibv_post_send(qp, &wr, &bad);
    if (rc != 0) {
        disni_throw(env, rc, "ibv_post_send of an atomic (%s) failed",
                    cmpAndSwap ? "compare-and-swap" : "fetch-and-add");
    }
}
