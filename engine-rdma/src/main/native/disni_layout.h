/*
 * Numbers fixed by DiSNI 2.1's Java side (not by the C headers); disni_abi.c
 * proves at compile time that the C structures agree with them.
 */
#ifndef FERRY_DISNI_LAYOUT_H
#define FERRY_DISNI_LAYOUT_H

/* NativeDispatcher.JVERBS_VERSION: the constructor refuses any other value. */
#define DISNI_JNI_VERSION 32

/* NatIbvSendWR.CSIZE: bytes per send work request record in DiSNI's buffer. */
#define DISNI_SEND_WR_SIZE 72

/* Where a record keeps the absolute address of the next record (0 ends the list). */
#define DISNI_SEND_WR_NEXT_OFFSET 8

/* SockAddrIn.CSIZE: bytes DiSNI allocates for a socket address. */
#define DISNI_SOCKADDR_SIZE 28

/* RdmaCmNat.getCmEvent passes a 16-byte buffer: [0,8) receives the listening id of
 * a connect request, [8,16) the event's own id (the new id for a connect request). */
#define DISNI_CM_NO_ID ((uint64_t)-1) /* written when the event carries no such id */

/* DiSNI 2.1's _createQP has no scatter/gather parameter; its original library used
 * 4 entries per work request, and Ferry posts single-entry requests. */
#define DISNI_MAX_SGE 4

/* Longest send/recv list walked by _postSend/_postRecv: a guard against a corrupt
 * or cyclic next chain, far above anything a queue pair accepts in one post. */
#define DISNI_MAX_WR_CHAIN 65536

#endif
