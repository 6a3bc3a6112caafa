#ifndef SENDSIM_MODEL_SOCKET_H_
#define SENDSIM_MODEL_SOCKET_H_

// Public surface of the simulated sending socket, as the messenger sees it.
// Semantics are Linux's (docs/kernel-send-path.md summarises them);
// return values are byte counts or negated errno, as from the kernel.

#include <cstdint>
#include <functional>
#include <optional>

#include "absl/types/span.h"
#include "model/event_loop.h"
#include "model/types.h"
#include "model/errqueue.h"

namespace sendsim::model {

// tcp_info subset (struct tcp_info field names without the tcpi_ prefix).
struct TcpInfo {
  uint32_t snd_cwnd = 0;
  uint32_t snd_ssthresh = 0;
  uint32_t snd_mss = 0;
  uint32_t advmss = 0;
  uint32_t rtt_us = 0;
  uint32_t unacked = 0;       // packets_out
  uint32_t notsent_bytes = 0;
  uint64_t bytes_sent = 0;
  uint64_t bytes_acked = 0;
  uint64_t segs_out = 0;       // segments the socket sent (tp->segs_out): data, FIN, window probes
  uint64_t data_segs_out = 0;  // of those, the ones with payload (tp->data_segs_out)
  uint32_t snd_wnd = 0;
  uint32_t sndbuf = 0;
  uint32_t wmem_queued = 0;
  uint32_t rto_us = 0;
  uint8_t ca_state = 0;           // TCP_CA_Open 0, Disorder 1, CWR 2, Recovery 3, Loss 4
  uint8_t retransmits = 0;        // consecutive RTOs (icsk_retransmits)
  uint8_t probes = 0;             // unanswered zero-window probes (icsk_probes_out)
  uint8_t backoff = 0;            // icsk_backoff
  uint32_t lost = 0;              // lost_out
  uint32_t sacked = 0;            // sacked_out (Reno: duplicate ACKs)
  uint32_t reordering = 3;        // tp->reordering
  uint32_t retrans = 0;           // retrans_out
  uint32_t total_retrans = 0;     // retransmitted segments
  uint32_t delivered = 0;         // segments delivered, the handshake's one included
  uint32_t delivered_ce = 0;      // of those, acknowledged by ACKs with ECE
  uint32_t dsack_dups = 0;        // segments D-SACKs reported (tp->dsack_dups)
  uint32_t reord_seen = 0;        // reordering events detected (tp->reord_seen)
  uint64_t delivery_rate = 0;     // bytes/s of the last recorded rate sample (tcp_compute_delivery_rate)
  bool delivery_rate_app_limited = false;  // that sample was application-limited
  uint64_t pacing_rate = 0;       // bytes/s (UINT64_MAX: unlimited)
  // tcp_get_info_chrono_stats (us, jiffy granularity): busy_time covers
  // all three chronographs, the other two their own part of it.
  uint64_t busy_time_us = 0;
  uint64_t rwnd_limited_us = 0;
  uint64_t sndbuf_limited_us = 0;
  uint32_t rttvar_us = 0;             // mdev_us >> 2
  uint32_t min_rtt_us = UINT32_MAX;   // tcp_min_rtt (~0U before any sample)
  uint64_t bytes_retrans = 0;         // payload bytes retransmitted
  // RTO statistics (tcp_update_rto_stats, v6.7+ fields). Unknown after a
  // handshake that retransmitted (its timeouts are not modelled here).
  bool total_rto_known = true;
  uint32_t total_rto = 0;             // retransmission timeouts
  uint32_t total_rto_recoveries = 0;  // RTO series (Loss episodes started by an RTO)
  uint32_t total_rto_time_ms = 0;     // time in them, the current one included
  uint32_t last_data_sent_ms = 0;     // since lsndtime
  uint32_t last_ack_recv_ms = 0;      // since rcv_tstamp
  // Since icsk_ack.lrcvtime as the connection's creation set it (the model
  // socket receives no data; the packetdrill runner's receive side knows
  // later arrivals).
  uint32_t last_data_recv_ms = 0;
  uint32_t pmtu = 0;                  // icsk_pmtu_cookie
  uint32_t notsent_lowat = 0;     // effective TCP_NOTSENT_LOWAT (not in struct tcp_info)
};

// Counters the model keeps on every run (cheap: plain integers).
struct Counters {
  uint64_t pushes_by_reason[static_cast<int>(PushReason::kCount)] = {};
  uint64_t packets_by_reason[static_cast<int>(PushReason::kCount)] = {};
  uint64_t autocorks = 0;
  uint64_t tso_deferrals = 0;
  uint64_t eagains = 0;
  uint64_t tsq_throttles = 0;
  uint64_t nagle_holds = 0;
  uint64_t cork_holds = 0;
  uint64_t probe0_fires = 0;
  uint64_t tlp_fires = 0;
  uint64_t rto_fires = 0;
  uint64_t backlog_acks = 0;
  uint64_t write_space_calls = 0;
  // CUBIC's HyStart exits from slow start, by detector (the kernel's
  // TCPHystartTrainDetect and TCPHystartDelayDetect).
  uint64_t hystart_train_exits = 0;
  uint64_t hystart_delay_exits = 0;
};

// kSoTimestamping: the caller checks the value (sock_set_timestamping's
// rules); the model takes any.
enum class SockOpt { kTcpNodelay, kTcpCork, kSoSndbuf, kTcpMaxseg, kTcpNotsentLowat, kTcpUserTimeout, kSoTimestamping };

class Socket {
 public:
  // Called on sk_write_space (tcp_check_space -> tcp_new_space) when the
  // generic wakeup test passes (free >= half of queued, below sndbuf). It runs
  // inside ACK processing: like ceph_sock_write_space it must only schedule
  // work (EventLoop), never call into the socket synchronously.
  using WriteSpaceFn = std::function<void()>;
  // Completion of a blocking call (no MSG_DONTWAIT) that had to wait.
  using DoneFn = std::function<void(int64_t ret)>;
  // Returned by a blocking call that is waiting; `done` gets the result.
  static constexpr int64_t kInProgress = INT64_MIN;

  virtual ~Socket() = default;

  // Every call below that takes the socket lock has its effects at call time
  // and holds the socket for ConnectionConfig::call_cost_ns (plus
  // last_call_xmit_ns()): make the next call no earlier than that (an
  // earlier call ends the hold).

  // do_tcp_sendpages (<= v6.4 profiles). Returns bytes accepted or -errno.
  virtual int64_t sendpage(Page page, uint32_t offset, uint32_t size, int flags,
                           DoneFn done = nullptr) = 0;
  // tcp_sendmsg_locked, copy path (ITER_KVEC). With MSG_ZEROCOPY in flags
  // (the caller has set SO_ZEROCOPY) the buffers' pages are attached as
  // frags instead, each element starting on its own page.
  virtual int64_t sendmsg(absl::Span<const Iovec> iov, int flags, DoneFn done = nullptr) = 0;
  // tcp_sendmsg_locked with ITER_BVEC; pages are attached when flags carry
  // kMsgSplicePages (v6.5+ profiles), copied otherwise.
  virtual int64_t sendmsg_bvec(absl::Span<const BioVec> bvec, int flags, DoneFn done = nullptr) = 0;
  // do_tcp_setsockopt / sock_setsockopt. Returns 0 or -errno.
  virtual int setsockopt(SockOpt opt, int64_t value) = 0;

  virtual void set_write_space_callback(WriteSpaceFn fn) = 0;
  // Tag recorded with the bytes of the following calls (message/piece ids
  // for traces); not a kernel concept.
  virtual void set_call_tag(uint64_t tag) = 0;

  // True between lock_sock and release_sock of the current call.
  virtual bool owned() const = 0;
  // Softirq time taken so far from the CPU the caller runs on (model::CpuSteal);
  // 0 unless receive processing shares the sender's CPU.
  virtual TimeNs cpu_stolen_ns() { return 0; }
  // CPU the last call took beyond ConnectionConfig::call_cost_ns: segments
  // it transmitted, release_sock included (ConnectionConfig::xmit_cost_ns).
  // The caller's next call comes no earlier than call_cost_ns plus this.
  virtual TimeNs last_call_xmit_ns() const { return 0; }
  virtual TcpInfo info() const = 0;
  // sk_error_queue (errqueue.h: MSG_ZEROCOPY completions, transmit
  // timestamps): the oldest entry, removed (nullopt: empty), and whether
  // one is queued.
  virtual std::optional<SockExterr> RecvErrqueue() { return std::nullopt; }
  virtual bool errqueue_pending() { return false; }
  // sk_error_report calls so far (one per notification queued).
  virtual uint64_t errqueue_reports() { return 0; }
  virtual const Counters& counters() const = 0;
};

// Runs `next` once the caller, an application thread on the CPU the socket's
// softirq work is charged to, has had `cpu_ns` of its own CPU time: work
// stolen meanwhile (Socket::cpu_stolen_ns, model/host/cpu_steal.h) pushes the end
// out, again while more arrives. With nothing stolen it is one
// ScheduleAfter(cpu_ns).
void AfterCpu(EventLoop* loop, Socket* sock, TimeNs cpu_ns, std::function<void()> next);

}  // namespace sendsim::model

#endif  // SENDSIM_MODEL_SOCKET_H_
