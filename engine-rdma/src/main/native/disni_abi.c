/*
 * The version and layout natives that DiSNI's NativeDispatcher constructor
 * compares with its Java constants, and compile-time proof that the layouts
 * DiSNI 2.1 writes into direct buffers match the rdma-core headers we build with.
 *
 * DiSNI 2.1's Java constants (javap -c on SockAddrIn, NatIbvSendWR, NatIbvRecvWR,
 * NatIbvSge, IbvWC):
 *   SockAddrIn.CSIZE               28
 *   NatIbvSendWR.CSIZE             72   REMOTEADDR_OFFSET 40   RKEY_OFFSET 48
 *   NatIbvRecvWR.CSIZE             32
 *   NatIbvSge.CSIZE                16
 *   IbvWC.CSIZE                    48
 *   NativeDispatcher.JVERBS_VERSION 32
 * On a mismatch DiSNI only logs and overwrites its constant with our value (only
 * the version mismatch is fatal), so a wrong answer here would silently change the
 * layout DiSNI writes. Every value below is therefore derived from the C headers
 * and pinned to DiSNI's number by a static assertion: if a future rdma-core moved a
 * field, the library would fail to build instead of corrupting work requests.
 */
#include <netinet/in.h>
#include <stddef.h>
#include <sys/socket.h>

#include <infiniband/verbs.h>
#include <rdma/rdma_cma.h>

#include "disni_jni.h"
#include "disni_layout.h"

/* ---- ibv_sge: DiSNI writes addr(8) length(4) lkey(4), used as-is by the provider. */
_Static_assert(sizeof(struct ibv_sge) == 16, "ibv_sge size");
_Static_assert(offsetof(struct ibv_sge, addr) == 0, "ibv_sge.addr");
_Static_assert(offsetof(struct ibv_sge, length) == 8, "ibv_sge.length");
_Static_assert(offsetof(struct ibv_sge, lkey) == 12, "ibv_sge.lkey");

/* ---- ibv_recv_wr: DiSNI writes wr_id, next, sg_list, num_sge at a 32-byte stride
 * and links them with absolute next pointers: a genuine C array, passed straight
 * to ibv_post_recv. */
_Static_assert(sizeof(struct ibv_recv_wr) == 32, "ibv_recv_wr size");
_Static_assert(offsetof(struct ibv_recv_wr, wr_id) == 0, "ibv_recv_wr.wr_id");
_Static_assert(offsetof(struct ibv_recv_wr, next) == 8, "ibv_recv_wr.next");
_Static_assert(offsetof(struct ibv_recv_wr, sg_list) == 16, "ibv_recv_wr.sg_list");
_Static_assert(offsetof(struct ibv_recv_wr, num_sge) == 24, "ibv_recv_wr.num_sge");

/* ---- ibv_send_wr: DiSNI 2.1 writes a 72-byte record per work request: the prefix
 * of struct ibv_send_wr up to and including the 'wr' union (wr_id, next, sg_list,
 * num_sge, opcode, send_flags, imm_data, wr.rdma.{remote_addr, rkey}). Today's
 * struct continues with qp_type.xrc and the bind_mw/tso union and is 128 bytes, so
 * the records are NOT an array of struct ibv_send_wr: a provider reading a field
 * past byte 72 would read the next record or run off the buffer. _postSend copies
 * each record into a zeroed, full-size struct (disni_verbs.c). The size reported
 * to DiSNI is that of the record, i.e. offsetof(struct ibv_send_wr, qp_type). */
_Static_assert(DISNI_SEND_WR_SIZE == 72, "DiSNI send WR record size");
_Static_assert(offsetof(struct ibv_send_wr, qp_type) == DISNI_SEND_WR_SIZE,
               "the DiSNI record must be exactly the prefix of ibv_send_wr up to qp_type");
_Static_assert(sizeof(struct ibv_send_wr) >= DISNI_SEND_WR_SIZE, "ibv_send_wr size");
_Static_assert(offsetof(struct ibv_send_wr, wr_id) == 0, "ibv_send_wr.wr_id");
_Static_assert(offsetof(struct ibv_send_wr, next) == DISNI_SEND_WR_NEXT_OFFSET, "ibv_send_wr.next");
_Static_assert(offsetof(struct ibv_send_wr, sg_list) == 16, "ibv_send_wr.sg_list");
_Static_assert(offsetof(struct ibv_send_wr, num_sge) == 24, "ibv_send_wr.num_sge");
_Static_assert(offsetof(struct ibv_send_wr, opcode) == 28, "ibv_send_wr.opcode");
_Static_assert(offsetof(struct ibv_send_wr, send_flags) == 32, "ibv_send_wr.send_flags (SENDFLAGS_OFFSET)");
_Static_assert(offsetof(struct ibv_send_wr, imm_data) == 36, "ibv_send_wr.imm_data");
_Static_assert(offsetof(struct ibv_send_wr, wr.rdma.remote_addr) == 40, "REMOTEADDR_OFFSET");
_Static_assert(offsetof(struct ibv_send_wr, wr.rdma.rkey) == 48, "RKEY_OFFSET");
_Static_assert(sizeof(enum ibv_wr_opcode) == 4, "opcode is written as a Java int");

/* DiSNI's Java enums and flags are plain numbers copied into these fields. */
_Static_assert(IBV_WR_RDMA_WRITE == 0 && IBV_WR_RDMA_WRITE_WITH_IMM == 1 && IBV_WR_SEND == 2
               && IBV_WR_SEND_WITH_IMM == 3 && IBV_WR_RDMA_READ == 4
               && IBV_WR_ATOMIC_CMP_AND_SWP == 5 && IBV_WR_ATOMIC_FETCH_AND_ADD == 6,
               "IbvSendWR.IBV_WR_* values");
_Static_assert(IBV_SEND_FENCE == 1 && IBV_SEND_SIGNALED == 2 && IBV_SEND_SOLICITED == 4
               && IBV_SEND_INLINE == 8, "IbvSendWR.IBV_SEND_* values");
_Static_assert(IBV_ACCESS_LOCAL_WRITE == 1 && IBV_ACCESS_REMOTE_WRITE == 2
               && IBV_ACCESS_REMOTE_READ == 4 && IBV_ACCESS_REMOTE_ATOMIC == 8
               && IBV_ACCESS_MW_BIND == 16 && IBV_ACCESS_ON_DEMAND == 64,
               "IbvMr.IBV_ACCESS_* values");
_Static_assert(IBV_QPT_RC == 2 && IBV_QPT_UC == 3 && IBV_QPT_UD == 4, "IbvQP.IBV_QPT_* values");
_Static_assert(RDMA_PS_IPOIB == 2 && RDMA_PS_TCP == 262 && RDMA_PS_UDP == 273,
               "RdmaCm.RDMA_PS_* values");

/* ---- ibv_wc: ibv_poll_cq writes straight into DiSNI's buffer (48-byte stride);
 * NatPollCqCall reads these fields in this order. */
_Static_assert(sizeof(struct ibv_wc) == 48, "ibv_wc size");
_Static_assert(offsetof(struct ibv_wc, wr_id) == 0, "ibv_wc.wr_id");
_Static_assert(offsetof(struct ibv_wc, status) == 8, "ibv_wc.status");
_Static_assert(offsetof(struct ibv_wc, opcode) == 12, "ibv_wc.opcode");
_Static_assert(offsetof(struct ibv_wc, vendor_err) == 16, "ibv_wc.vendor_err");
_Static_assert(offsetof(struct ibv_wc, byte_len) == 20, "ibv_wc.byte_len");
_Static_assert(offsetof(struct ibv_wc, imm_data) == 24, "ibv_wc.imm_data");
_Static_assert(offsetof(struct ibv_wc, qp_num) == 28, "ibv_wc.qp_num");
_Static_assert(offsetof(struct ibv_wc, src_qp) == 32, "ibv_wc.src_qp");
_Static_assert(offsetof(struct ibv_wc, wc_flags) == 36, "ibv_wc.wc_flags");
_Static_assert(offsetof(struct ibv_wc, pkey_index) == 40, "ibv_wc.pkey_index");
_Static_assert(offsetof(struct ibv_wc, slid) == 42, "ibv_wc.slid");
_Static_assert(offsetof(struct ibv_wc, sl) == 44, "ibv_wc.sl");
_Static_assert(offsetof(struct ibv_wc, dlid_path_bits) == 45, "ibv_wc.dlid_path_bits");
_Static_assert(IBV_WC_SUCCESS == 0, "IbvWC treats status 0 as success");

/* ---- socket addresses: DiSNI allocates SockAddrIn.CSIZE = 28 bytes, writes
 * family(2) port(2) addr(4) (the sockaddr_in layout) for bind/resolve, and reads
 * the same three fields back after _getSrcAddr/_getDstAddr. 28 bytes is
 * sizeof(struct sockaddr_in6): the slot is a socket-address buffer large enough
 * for either family, and that is the size reported. The natives only ever copy a
 * sockaddr_in (16 bytes) into it, because DiSNI 2.1 decodes IPv4 only. */
_Static_assert(DISNI_SOCKADDR_SIZE == 28, "SockAddrIn.CSIZE");
_Static_assert(sizeof(struct sockaddr_in6) == DISNI_SOCKADDR_SIZE, "sockaddr_in6 size");
_Static_assert(sizeof(struct sockaddr_in) <= DISNI_SOCKADDR_SIZE, "a sockaddr_in fits the slot");
_Static_assert(offsetof(struct sockaddr_in, sin_family) == 0, "sin_family");
_Static_assert(offsetof(struct sockaddr_in, sin_port) == 2, "sin_port");
_Static_assert(offsetof(struct sockaddr_in, sin_addr) == 4, "sin_addr");

JNIEXPORT jint JNICALL DISNI(getVersion)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return DISNI_JNI_VERSION;
}

JNIEXPORT jint JNICALL DISNI(getSockAddrInSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)sizeof(struct sockaddr_in6);
}

JNIEXPORT jint JNICALL DISNI(getIbvRecvWRSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)sizeof(struct ibv_recv_wr);
}

JNIEXPORT jint JNICALL DISNI(getIbvSendWRSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)offsetof(struct ibv_send_wr, qp_type);
}

JNIEXPORT jint JNICALL DISNI(getIbvSgeSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)sizeof(struct ibv_sge);
}

JNIEXPORT jint JNICALL DISNI(getIbvWCSize)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)sizeof(struct ibv_wc);
}

JNIEXPORT jint JNICALL DISNI(getRemoteAddressOffset)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)offsetof(struct ibv_send_wr, wr.rdma.remote_addr);
}

JNIEXPORT jint JNICALL DISNI(getRKeyOffset)(JNIEnv *env UNUSED, jobject self UNUSED)
{
    return (jint)offsetof(struct ibv_send_wr, wr.rdma.rkey);
}
