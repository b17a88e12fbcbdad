package io.ferry.fabric.rdma.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedList;
import java.util.List;

import com.ibm.disni.util.MemBuf;
import com.ibm.disni.util.MemoryUtils;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.IbvSge;
import com.ibm.disni.verbs.RdmaVerbs;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.impl.NatIbvQP;

/**
 * Runs inside a {@link io.ferry.fabric.rdma.VerbsLoader}: serialises send work requests with DiSNI's own
 * {@code NatPostSendCall} and checks what libdisni's {@code _postSend} would hand to {@code ibv_post_send}, field by
 * field, without a queue pair (the translation stops short of posting).
 */
public final class SendListTranslationCheck implements Runnable {
    private static final int RECORD = 72; // NatIbvSendWR.CSIZE

    @Override
    public void run() {
        try {
            check();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static IbvSendWR wr(long id, int opcode, int flags, int imm, long remoteAddr, int rkey, long... sges) {
        IbvSendWR wr = new IbvSendWR();
        wr.setWr_id(id);
        wr.setOpcode(opcode);
        wr.setSend_flags(flags);
        wr.setImm_data(imm);
        wr.getRdma().setRemote_addr(remoteAddr);
        wr.getRdma().setRkey(rkey);
        LinkedList<IbvSge> list = new LinkedList<>();
        for (int i = 0; i < sges.length; i++) {
            IbvSge sge = new IbvSge();
            sge.setAddr(sges[i]);
            sge.setLength(4096 * (i + 1));
            sge.setLkey(0x100 + i);
            list.add(sge);
        }
        wr.setSg_list(list);
        wr.setNum_sge(list.size());
        return wr;
    }

    private void check() throws Exception {
        List<IbvSendWR> wrs = List.of(
                wr(11, IbvSendWR.IBV_WR_RDMA_READ, IbvSendWR.IBV_SEND_SIGNALED, 0, 0x7f0000001000L, 0xabc, 0x10000L),
                wr(12, IbvSendWR.IBV_WR_RDMA_WRITE, 0, 0, 0x7f0000002000L, 0xdef, 0x20000L, 0x30000L),
                wr(13, IbvSendWR.IBV_WR_SEND_WITH_IMM, IbvSendWR.IBV_SEND_SIGNALED | IbvSendWR.IBV_SEND_INLINE,
                        0x01020304, 0, 0));
        SVCPostSend call = RdmaVerbs.open().postSend(new NatIbvQP(0x1000, null), wrs, null);
        try {
            MemBuf cmd = (MemBuf) field(call, "cmd");
            ByteBuffer disni = cmd.getBuffer().duplicate().order(ByteOrder.nativeOrder());
            long base = cmd.address();

            int size = SendWorkRequests.structSize();
            ByteBuffer out = ByteBuffer.allocateDirect(size * 4).order(ByteOrder.nativeOrder());
            long outAddress = MemoryUtils.getAddress(out);

            verify(wrs, disni, base, out, outAddress, size);

            // DiSNI's stateful calls patch the serialised records in place; a repost must carry the change.
            call.getWrMod(1).setWr_id(4242);
            call.getWrMod(1).getRdmaMod().setRemote_addr(0x7f0000009000L);
            wrs.get(1).setWr_id(4242);
            wrs.get(1).getRdma().setRemote_addr(0x7f0000009000L);
            verify(wrs, disni, base, out, outAddress, size);

            assertEquals(-2, SendWorkRequests.translate(base, outAddress, 2), "three requests do not fit in two");
            disni.putLong(2 * RECORD + 8, base); // the last record now points back at the first
            assertEquals(-1, SendWorkRequests.translate(base, outAddress, 4), "a cycle is refused");
            disni.putLong(2 * RECORD + 8, 0);
        } finally {
            call.free();
        }
    }

    private static void verify(List<IbvSendWR> wrs, ByteBuffer disni, long base, ByteBuffer out, long outAddress,
            int size) {
        for (int i = 0; i < out.capacity(); i++) {
            out.put(i, (byte) 0x5a); // what the translation must overwrite or zero
        }
        assertEquals(wrs.size(), SendWorkRequests.translate(base, outAddress, 4));
        for (int i = 0; i < wrs.size(); i++) {
            IbvSendWR wr = wrs.get(i);
            int at = i * size;
            String what = "work request " + i + " ";
            assertEquals(wr.getWr_id(), out.getLong(at), what + "wr_id");
            assertEquals(i + 1 < wrs.size() ? outAddress + (long) (i + 1) * size : 0, out.getLong(at + 8),
                    what + "next links the translated copies");
            long sgList = out.getLong(at + 16);
            assertEquals(disni.getLong(i * RECORD + 16), sgList, what + "sg_list is DiSNI's array");
            assertEquals(wr.getNum_sge(), out.getInt(at + 24), what + "num_sge");
            for (int j = 0; j < wr.getNum_sge(); j++) {
                int sge = (int) (sgList - base) + 16 * j;
                assertEquals(wr.getSg_list().get(j).getAddr(), disni.getLong(sge), what + "sge addr");
                assertEquals(wr.getSg_list().get(j).getLength(), disni.getInt(sge + 8), what + "sge length");
                assertEquals(wr.getSg_list().get(j).getLkey(), disni.getInt(sge + 12), what + "sge lkey");
            }
            assertEquals(wr.getOpcode(), out.getInt(at + 28), what + "opcode");
            assertEquals(wr.getSend_flags(), out.getInt(at + 32), what + "send_flags");
            assertEquals(wr.getImm_data(), out.getInt(at + 36), what + "imm_data");
            assertEquals(wr.getRdma().getRemote_addr(), out.getLong(at + 40), what + "wr.rdma.remote_addr");
            assertEquals(wr.getRdma().getRkey(), out.getInt(at + 48), what + "wr.rdma.rkey");
            for (int b = RECORD; b < size; b++) {
                assertEquals(0, out.get(at + b), what + "byte " + b + " (past DiSNI's record) is zero");
            }
        }
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }
}
