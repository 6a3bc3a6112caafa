#ifndef SENDSIM_MESSENGER_CONNECTION_H_
#define SENDSIM_MESSENGER_CONNECTION_H_

// The write side of a libceph ceph_connection in state OPEN: ceph_con_send,
// the worker (ceph_con_workfn -> try_read -> try_write) and the socket
// callbacks, driving a model::Socket on the model's EventLoop.
//
// The worker is written as libceph's try_write, but every socket call ends a
// "unit": the CPU work that follows the call in the kernel (crc32c of the
// piece, cursor bookkeeping; prepare_write_message before a message) is
// charged as simulated time, and the next unit runs that much later on the
// loop. In between, the model processes ACKs, timers and TX completions, as
// softirqs do while the kworker is computing a crc. All resumable state lives
// in the connection exactly where libceph keeps it (out_kvec, cursor, footer
// data_crc, out_skip), so re-entering try_write at MORE after a unit is the
// same as continuing the kernel's loop.

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "absl/status/status.h"
#include "messenger/call_tag.h"
#include "messenger/message.h"
#include "messenger/wire_v1.h"
#include "messenger/wire_v2.h"
#include "messenger/writer_policy.h"
#include "model/event_loop.h"
#include "model/socket.h"

namespace sendsim::messenger {

// CPU costs of the kworker between socket calls (simulated time).
struct CpuCosts {
  // crc32c over 4 KiB; docs/libceph-write-path.md §10.1 estimates ~1 us with hardware crc32c
  // (UNVERIFIED). Charged per byte, rounded up.
  model::TimeNs crc_ns_per_4k = 1000;
  // Cursor/kvec bookkeeping after each socket call.
  model::TimeNs per_call_ns = 100;
  // prepare_write_message without its crcs (reencode_message, list moves).
  model::TimeNs prepare_message_ns = 1000;
  // queue_con -> the worker starts running (workqueue wakeup latency).
  model::TimeNs worker_wakeup_ns = 0;
  // Time one socket call holds the socket; must equal the model's
  // ConnectionConfig::call_cost_ns so that the next call finds it released.
  model::TimeNs call_cost_ns = 0;

  model::TimeNs Crc(uint64_t bytes) const { return static_cast<model::TimeNs>((bytes * crc_ns_per_4k + 4095) / 4096); }
};

struct ConnectionOptions {
  WriterPolicy policy;
  // Peer lacks CEPH_FEATURE_MSG_AUTH: 13-byte ceph_msg_footer_old.
  bool old_footer = false;
  // The kernel has ->sendpage (<= v6.4). When false, "sendpage" calls are
  // issued as v6.5's ceph_tcp_sendpage does: sendmsg(bvec) + SPLICE_PAGES.
  bool has_sendpage = true;
  // CEPH_OPT_NOCRC unset: data crc on (the default).
  bool do_crc = true;
  uint8_t src_type = 8;  // CEPH_ENTITY_TYPE_CLIENT
  uint64_t src_num = 4100;
  CpuCosts costs;
};

// Callbacks for the driver; all optional.
class ConnectionListener {
 public:
  virtual ~ConnectionListener() = default;
  // prepare_write_message assigned `msg` its seq (before any of its bytes is
  // offered to the socket; the model may deliver bytes to the peer inside a
  // socket call).
  virtual void OnMessagePrepared(const CephMsg& /*msg*/, model::TimeNs /*t*/) {}
  // The call that completed the footer (v2: the frame's last byte) returned;
  // `stream_end` = bytes written on the connection so far.
  virtual void OnMessageWritten(const CephMsg& /*msg*/, uint64_t /*stream_end*/, model::TimeNs /*t*/) {}
  // Every socket call, after it returned (ret: bytes, 0 for EAGAIN, -errno).
  virtual void OnSocketCall(CallPart /*part*/, uint64_t /*tag*/, int /*flags*/, int64_t /*ret*/) {}
};

class CephConnection {
 public:
  // `loop`, `socket` and `listener` (may be null) must outlive the connection.
  // Installs the write-space callback on the socket.
  CephConnection(model::EventLoop* loop, model::Socket* socket, ConnectionOptions options,
                 ConnectionListener* listener = nullptr);
  CephConnection(const CephConnection&) = delete;
  CephConnection& operator=(const CephConnection&) = delete;

  // ceph_con_send.
  void ceph_con_send(CephMsgRef msg);
  // ceph_con_keepalive.
  void ceph_con_keepalive();
  // ceph_msg_revoke (v1 only; v2 returns Unimplemented).
  absl::Status ceph_msg_revoke(const CephMsgRef& msg);
  // The peer sent `n` messages; they are read (in_seq += n) by the next
  // worker run's try_read. This is sk_data_ready -> queue_con.
  void OnIncomingMessages(uint64_t n);
  // The peer acknowledged our messages up to `seq` (CEPH_MSGR_TAG_ACK read by
  // try_read): drops them from out_sent.
  void OnPeerAck(uint64_t seq);

  // The first socket error other than -EAGAIN (the worker stops; no
  // reconnect is modelled).
  const absl::Status& error() const { return error_; }
  uint64_t bytes_written() const { return bytes_written_; }
  uint64_t in_seq() const { return in_seq_; }
  uint64_t in_seq_acked() const { return in_seq_acked_; }
  uint64_t out_seq() const { return out_seq_; }
  bool write_pending() const { return write_pending_; }
  bool idle() const { return !running_ && !work_queued_ && !write_pending_; }
  size_t out_queue_size() const { return out_queue_.size(); }
  size_t out_sent_size() const { return out_sent_.size(); }
  uint64_t worker_runs() const { return worker_runs_; }

 private:
  // Outcome of one unit of try_write.
  enum class Unit { kContinue, kEnd };
  enum class Phase { kBegin, kWriting, kEnding, kDone };

  void queue_con();
  void ceph_sock_write_space();
  void StartRun();  // ceph_con_workfn
  void Step();
  void EndRun();
  Unit RunUnit();
  Unit TryWriteOne();  // try_write, from MORE up to and including one socket call or one prepare
  void try_read();

  // Socket calls: set the tag, call, charge call_cost, map -EAGAIN to 0.
  int64_t DoSendmsg(CallPart part, uint64_t tag, const model::Iovec* iov, size_t n, int flags);
  int64_t DoSendPage(CallPart part, uint64_t tag, const MsgPage& page, uint32_t off, uint32_t len, int flags);
  void DoSetCork(bool on);
  int64_t Finish(CallPart part, uint64_t tag, int flags, int64_t r);

  // out_kvec handling (con_out_kvec_reset / _add / _skip).
  void con_out_kvec_reset();
  void con_out_kvec_add(const uint8_t* base, size_t len);
  uint64_t con_out_kvec_skip();

  // Return: <0 error, 0 socket full, 1 done; or kCalled after one call.
  static constexpr int kCalled = 2;
  int write_partial_kvec();
  int write_partial_message_data();
  int write_partial_skip();

  CephMsgRef take_next_out_msg();
  void prepare_write_message();
  void prepare_write_message_footer();
  void queue_data_kvecs();  // v1-sendmsg
  void prepare_write_ack();
  void prepare_write_keepalive();
  // messenger_v2.c counterparts (crc mode).
  void prepare_message_v2();
  void prepare_epilogue_v2();
  void prepare_ack_v2();
  void prepare_keepalive2_v2();

  int Flags(const CallContext& ctx) const;
  CallPart KvecPart() const;
  void ChargeCrc(uint64_t bytes) { pending_cpu_ += options_.costs.Crc(bytes); }

  model::EventLoop* loop_;
  model::Socket* sock_;
  ConnectionOptions options_;
  ConnectionListener* listener_;
  absl::Status error_;

  // Work item state (ceph_con_workfn on ceph_msgr_wq).
  bool work_queued_ = false;
  bool running_ = false;
  Phase phase_ = Phase::kDone;
  model::TimeNs pending_cpu_ = 0;
  uint64_t worker_runs_ = 0;

  // con->flags.
  bool write_pending_ = false;
  bool keepalive_pending_ = false;
  bool corked_ = false;     // v1-cork: TCP_CORK currently set by us
  bool need_cork_ = false;  // v1-cork: set TCP_CORK before the next write

  std::deque<CephMsgRef> out_queue_;
  std::deque<CephMsgRef> out_sent_;
  CephMsgRef out_msg_;
  bool out_msg_done_ = false;
  uint32_t piece_index_ = 0;

  static constexpr int kMaxKvec = 8;
  // kMaxKvec entries as in libceph; v1-sendmsg also queues one per data piece.
  std::vector<model::Iovec> out_kvec_ = std::vector<model::Iovec>(kMaxKvec);
  std::vector<model::Iovec> sendmsg_iov_;  // DoSendmsg's non-empty entries
  int out_kvec_cur_ = 0;   // index of the current entry
  int out_kvec_left_ = 0;  // entries left from cur
  uint64_t out_kvec_bytes_ = 0;
  bool out_kvec_has_msg_ = false;  // the batch carries a message prefix (for tags)
  CallPart out_kvec_part_ = CallPart::kPrefix;
  bool out_more_ = false;
  uint64_t out_skip_ = 0;

  std::array<uint8_t, kAckSeqLen> out_temp_ack_{};
  std::array<uint8_t, kTimespecLen> out_temp_keepalive2_{};
  std::array<uint8_t, kMsgHeaderLen> out_hdr_{};
  std::array<uint8_t, kMsgFooterLen> out_footer_{};
  // v2: preamble + header2 (or control body) + inline crc, and the epilogue.
  std::array<uint8_t, kPreambleLen + kMsgHeader2Len + kCrcLen> out_head_{};
  std::array<uint8_t, kEpilogueCrcLen> out_epil_{};
  uint32_t out_v2_data_crc_ = 0;

  uint64_t in_seq_ = 0;
  uint64_t in_seq_acked_ = 0;
  uint64_t out_seq_ = 0;
  uint64_t pending_in_ = 0;
  uint64_t bytes_written_ = 0;
};

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_CONNECTION_H_
