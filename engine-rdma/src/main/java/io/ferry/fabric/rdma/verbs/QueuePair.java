package io.ferry.fabric.rdma.verbs;

import java.io.IOException;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;

/** A reliable-connected queue pair on a CM id, with its completion queue: what both ends of a connection own. */
final class QueuePair {
    final RdmaCmId id;
    final IbvCompChannel channel;
    final IbvCQ cq;
    final IbvQP qp;

    private QueuePair(RdmaCmId id, IbvCompChannel channel, IbvCQ cq, IbvQP qp) {
        this.id = id;
        this.channel = channel;
        this.cq = cq;
        this.qp = qp;
    }

    /** Creates the queue pair of {@code id} in {@code pd}, room for {@code sends} outstanding work requests. */
    static QueuePair create(RdmaCmId id, IbvPd pd, int sends) throws IOException {
        IbvContext context = id.getVerbs();
        IbvCompChannel channel = context.createCompChannel();
        IbvCQ cq = null;
        try {
            cq = context.createCQ(channel, sends + 1, 0);
            return new QueuePair(id, channel, cq, id.createQP(pd, attributes(cq, sends)));
        } catch (IOException | RuntimeException e) {
            try {
                if (cq != null) {
                    cq.destroyCQ();
                }
                channel.destroyCompChannel();
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private static IbvQPInitAttr attributes(IbvCQ cq, int sends) {
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_send_wr(sends);
        attr.cap().setMax_recv_wr(1);
        attr.cap().setMax_send_sge(1);
        attr.cap().setMax_recv_sge(1);
        attr.cap().setMax_inline_data(0);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setSend_cq(cq);
        attr.setRecv_cq(cq);
        return attr;
    }

    static RdmaConnParam connParam() throws IOException {
        // DiSNI leaves the outstanding-READ limits (initiator depth, responder resources) to the native side,
        // which asks for the most the device allows.
        RdmaConnParam p = new RdmaConnParam();
        // A dead peer is noticed after a few transport retries, not the maximum of seven.
        p.setRetry_count((byte) 3);
        p.setRnr_retry_count((byte) 0);
        return p;
    }

    /** Destroys the queue pair, its completion queue and channel, and the id; logs nothing, throws the first error. */
    void destroy() throws IOException {
        IOException first = null;
        for (IoAction a : new IoAction[] {id::destroyQP, cq::destroyCQ, channel::destroyCompChannel, id::destroyId}) {
            try {
                a.run();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @FunctionalInterface
    interface IoAction {
        Object run() throws IOException;
    }
}
