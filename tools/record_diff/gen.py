#!/usr/bin/env python3
"""Random upstream-style packetdrill scripts for `sendsim packetdrill --record`.

Each seed gives one script: a passive open with random options (SACK,
timestamps, window scale, peer MSS), then writes (some with MSG_MORE),
cumulative, duplicate and SACK ACKs, inbound data and reads, window changes,
and assert blocks, with no outbound lines. Inbound ACK numbers are chosen
blind (from what was written, not what was sent), so some acknowledge data
never sent: both targets must then agree on that too. Deterministic: the
same seed gives the same script.
"""
import random
import sys

def gen(seed):
    r = random.Random(seed)
    sack = r.random() < 0.7
    ts = r.random() < 0.4
    ws = r.choice([None, 0, 7, 8])
    mss = r.choice([536, 1000, 1460])
    opts = ["mss %d" % mss]
    if sack and ts: opts += ["sackOK", "TS val 100 ecr 0"]
    elif sack: opts += ["sackOK", "nop", "nop"]
    elif ts: opts += ["nop", "nop", "TS val 100 ecr 0"]
    if ws is not None: opts += ["nop", "wscale %d" % ws]
    L = ["`../common/defaults.sh`", ""]
    sysctls = []
    if r.random() < 0.3: sysctls.append("0 `sysctl -q net.ipv4.tcp_min_tso_segs=%d`" % r.choice([1,2,4,10]))
    if r.random() < 0.2: sysctls.append("0 `sysctl -q net.ipv4.tcp_autocorking=%d`" % r.choice([0,1]))
    L += sysctls
    L += ["    0 socket(..., SOCK_STREAM, IPPROTO_TCP) = 3",
          "   +0 setsockopt(3, SOL_SOCKET, SO_REUSEADDR, [1], 4) = 0"]
    if r.random() < 0.3:
        L.append("   +0 setsockopt(3, SOL_SOCKET, SO_SNDBUF, [%d], 4) = 0" % r.choice([4096, 16384, 65536]))
    L += ["   +0 bind(3, ..., ...) = 0", "   +0 listen(3, 1) = 0",
          "   +0 < S 0:0(0) win %d <%s>" % (r.choice([65535, 32792, 8192]), ",".join(opts)),
          "   +0 > S. 0:0(0) ack 1 <...>"]
    tsv = 200
    def tsopt(ecr=True):
        nonlocal tsv
        tsv += 10
        return " <nop,nop,TS val %d ecr 1>" % tsv if ts else ""
    win = r.choice([257, 1000, 30, 8]) if ws else r.choice([65535, 20000, 4000])
    L += ["  +.1 < . 1:1(0) ack 1 win %d%s" % (win, tsopt()), "   +0 accept(3, ..., ...) = 4"]
    if r.random() < 0.3: L.append("   +0 setsockopt(4, SOL_TCP, TCP_NODELAY, [1], 4) = 0")
    W = 0; A = 0; rcv = 1; unread = [0]
    for i in range(r.randint(4, 14)):
        k = r.random()
        if k < 0.35:
            n = r.choice([1, 100, 500, 1000, mss, 2*mss, 3000, 10000, 20000, 40000])
            flag = r.choice(["", "", "", "MSG_MORE"])
            if flag:
                L.append("   +0 send(4, ..., %d, MSG_MORE) = %d" % (n, n))
            else:
                L.append("   +0 write(4, ..., %d) = %d" % (n, n))
            W += n
        elif k < 0.65 and W > A:
            dt = r.choice([".01", ".05", ".1", ".2"])
            kind = r.random()
            if kind < 0.6 or not sack:
                step = r.choice([mss, 2*mss, 5*mss, W - A])
                A2 = min(W, A + step)
                if r.random() < 0.15: A2 = A  # duplicate ACK
                L.append("  +%s < . %d:%d(0) ack %d win %d%s" % (dt, rcv, rcv, A2 + 1, win, tsopt()))
                A = A2
            else:
                s0 = A + mss * r.randint(1, 4); s1 = s0 + mss * r.randint(1, 3)
                if s1 <= W:
                    L.append("  +%s < . %d:%d(0) ack %d win %d <sack %d:%d,nop,nop>" % (dt, rcv, rcv, A + 1, win, s0 + 1, s1 + 1))
        elif k < 0.75:
            n = r.choice([50, 100, 200, 1000])
            L.append("  +.05 < P. %d:%d(%d) ack %d win %d%s" % (rcv, rcv + n, n, A + 1, win, tsopt()))
            rcv += n
            unread[0] += n
            if r.random() < 0.5:
                L.append("   +0 read(4, ..., 50000) = %d" % (unread[0],))
                unread[0] = 0
                # reads all queued? keep simple: read only what just came
        elif k < 0.82:
            # A late duplicate ACK: timers (TLP, RTO) run first.
            L.append("  +%s < . %d:%d(0) ack %d win %d%s" % (r.choice([".3", ".6"]), rcv, rcv, A + 1, win, tsopt()))
        elif k < 0.88:
            w2 = r.choice([0, 10, 100, 2000]) if ws else r.choice([0, 1000, 65535])
            L.append("  +.1 < . %d:%d(0) ack %d win %d%s" % (rcv, rcv, A + 1, w2, tsopt()))
            win = w2 if w2 else win
        else:
            L.append("  +%s %%{ assert tcpi_snd_cwnd > 0 }%%" % r.choice(["0", ".2", "1"]))
    L.append("  +%s < . %d:%d(0) ack %d win %d%s" % (r.choice([".1", "1", "3"]), rcv, rcv, W + 1, win, tsopt()))
    return "\n".join(L) + "\n"
if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: gen.py FIRST_SEED END_SEED OUT_DIR")
    a, b, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    for seed in range(a, b):
        with open("%s/s%04d.pkt" % (out, seed), "w") as f:
            f.write(gen(seed))
