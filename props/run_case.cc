#include "props/run_case.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "messenger/call_tag.h"
#include "messenger/connection.h"
#include "messenger/decoder.h"
#include "messenger/message.h"
#include "messenger/page_pool.h"
#include "messenger/writer_policy.h"
#include "model/config.h"
#include "model/connection.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/observer.h"
#include "model/profile.h"

namespace sendsim::props {
namespace {

namespace msgr = ::sendsim::messenger;
using model::TimeNs;

constexpr uint16_t kMsgTypeOsdOp = 42;  // CEPH_MSG_OSD_OP
// Distinct page contents per run; pages get fresh identities anyway.
constexpr size_t kPoolPages = 64;
// Loop slices: completion is checked between slices so that a finished run
// stops early instead of idling to the horizon.
constexpr TimeNs kSliceNs = 5 * model::kNsPerMs;

uint64_t Mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  return h * 0x100000001b3ULL;
}

// Deterministic filler bytes for fronts and middles.
std::vector<uint8_t> Bytes(uint32_t n, uint64_t seed) {
  std::vector<uint8_t> v(n);
  msgr::SplitMix64 rng(seed);
  for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(rng.Next());
  return v;
}

absl::StatusOr<msgr::CephMsgRef> BuildMessage(const MessageLayout& ml, uint64_t index, uint64_t seed,
                                             bool more_to_follow, msgr::PagePool* pool) {
  msgr::CephMsgRef m = msgr::ceph_msg_new(kMsgTypeOsdOp, Bytes(ml.front_len, Mix(seed, index * 2 + 1)));
  m->index = index;
  m->hdr.tid = index + 1;
  m->hdr.priority = 63;
  m->hdr.version = 8;
  m->hdr.compat_version = 3;
  m->more_to_follow = more_to_follow;
  if (ml.middle_len > 0) msgr::SetMiddle(m.get(), Bytes(ml.middle_len, Mix(seed, index * 2 + 2)));
  for (const DataItem& it : ml.items) {
    msgr::CephMsgData d;
    d.length = DataBytes(it);
    switch (it.kind) {
      case ItemKind::kPages:
      case ItemKind::kPagelist: {
        d.type = it.kind == ItemKind::kPages ? msgr::DataKind::kPages : msgr::DataKind::kPagelist;
        d.alignment = it.kind == ItemKind::kPages ? it.offset : 0;
        for (uint32_t i = 0; i < PieceCount(it); ++i) d.pages.push_back(pool->Next());
        break;
      }
      case ItemKind::kBio:
      case ItemKind::kBvecs: {
        std::vector<msgr::BioSeg> segs;
        for (const Extent& e : it.extents) segs.push_back(msgr::BioSeg{pool->Next(), e.offset, e.len});
        if (it.kind == ItemKind::kBio) {
          d.type = msgr::DataKind::kBio;
          d.bios.push_back(std::move(segs));
        } else {
          d.type = msgr::DataKind::kBvecs;
          d.bvecs = std::move(segs);
        }
        break;
      }
    }
    if (absl::Status s = msgr::ceph_msg_data_add_item(m.get(), std::move(d)); !s.ok()) return s;
  }
  return m;
}

bool IsAsyncReason(model::PushReason r) {
  switch (r) {
    case model::PushReason::kAck:
    case model::PushReason::kBacklog:
    case model::PushReason::kTsq:
    case model::PushReason::kTsqDeferred:
    case model::PushReason::kProbe0:
    case model::PushReason::kTlp:
    case model::PushReason::kRto:
    case model::PushReason::kRetransmit:
      return true;
    default:
      return false;
  }
}

// Observer + listener: records the wire, feeds the decoder, tracks per
// message write spans and triggers the revoke.
class Recorder : public model::Observer, public msgr::ConnectionListener {
 public:
  Recorder(const Case& c, model::EventLoop* loop, msgr::Protocol protocol)
      : case_(c), loop_(loop), decoder_(msgr::DecoderOptions{protocol, false, true, 1u << 30}),
        spans_(c.layout.messages.size(), {-1, -1}), accepted_(c.layout.messages.size(), 0) {
    decoder_.on_message = [this](const msgr::DecodedMessage& m) { decoded_.push_back(m); };
  }

  void set_connection(msgr::CephConnection* conn, std::vector<msgr::CephMsgRef> msgs) {
    conn_ = conn;
    msgs_ = std::move(msgs);
  }

  // model::Observer
  void OnWirePacket(const model::WirePacket& p) override {
    hash_ = Mix(hash_, static_cast<uint64_t>(p.time));
    hash_ = Mix(hash_, (uint64_t{p.seq} << 32) | p.ack);
    hash_ = Mix(hash_, (uint64_t{p.len} << 32) | (uint64_t{p.flags} << 16) | (uint64_t{static_cast<uint8_t>(p.dir)} << 8) |
                           static_cast<uint8_t>(p.reason));
    hash_ = Mix(hash_, (uint64_t{p.win} << 1) ^ p.tag);
    if (p.dir == model::Direction::kAck) {
      // Reported at departure from the peer; reaches the sender one way later.
      const uint64_t off = have_base_ ? static_cast<uint32_t>(p.ack - base_) : 0;
      acks_.emplace_back(p.time + case_.net.one_way_delay_ns, off);
      return;
    }
    if (p.len == 0) return;
    if (!have_base_) {
      have_base_ = true;
      base_ = p.seq;
    }
    uint32_t off = p.seq - base_;
    // A flush point is a push of the sender (pushed_seq), not the PSH that
    // __tcp_transmit_skb forces on every multi-segment TSO packet.
    const uint8_t flags = p.psh_forced ? static_cast<uint8_t>(p.flags & ~model::kTcpPsh) : p.flags;
    PacketRecord r{p.time, off, p.len, flags, static_cast<uint8_t>(p.reason), off < snd_max_};
    snd_max_ = std::max<uint64_t>(snd_max_, uint64_t{off} + p.len);
    packets_.push_back(r);
  }

  void OnDeliver(TimeNs t, uint32_t /*seq*/, const uint8_t* data, uint32_t len) override {
    if (data == nullptr) {
      decoder_error_ = "payload not tracked";
      return;
    }
    const int64_t drop = case_.mutation.decoder_drop_byte;
    if (drop >= 0 && static_cast<uint64_t>(drop) >= delivered_ && static_cast<uint64_t>(drop) < delivered_ + len) {
      // Negative control: the decoder sees the stream with one byte missing.
      const uint64_t k = static_cast<uint64_t>(drop) - delivered_;
      (void)decoder_.Feed(t, data, k);
      (void)decoder_.Feed(t, data + k + 1, len - k - 1);
    } else {
      (void)decoder_.Feed(t, data, len);
    }
    delivered_ += len;
  }

  // msgr::ConnectionListener
  void OnMessageWritten(const msgr::CephMsg& msg, uint64_t stream_end, TimeNs t) override {
    if (msg.index < spans_.size()) spans_[msg.index].second = t;
    (void)stream_end;
  }

  void OnSocketCall(msgr::CallPart part, uint64_t tag, int /*flags*/, int64_t ret) override {
    const TimeNs now = loop_->now();
    if (ret == 0 || ret == -model::kEagain) ++eagains_;
    msgr::CallTag ct = msgr::DecodeCallTag(tag);
    if (ct.msg_index >= spans_.size()) return;
    std::pair<TimeNs, TimeNs>& span = spans_[ct.msg_index];
    if (span.first < 0) span.first = now;
    if (part == msgr::CallPart::kFooter || part == msgr::CallPart::kPrefix || part == msgr::CallPart::kData) {
      if (ret > 0) accepted_[ct.msg_index] += static_cast<uint64_t>(ret);
    }
    MaybeRevoke(ct.msg_index);
  }

  void MaybeRevoke(uint64_t index) {
    if (revoked_ || !case_.layout.revoke.has_value() || case_.layout.revoke->message != index) return;
    if (accepted_[index] < case_.layout.revoke->after_bytes) return;
    revoked_ = true;
    // ceph_msg_revoke runs from another context (the OSD client's timeout
    // path): after the current socket call returned, at the same instant.
    msgr::CephMsgRef m = msgs_[index];
    loop_->ScheduleAfter(0, [this, m] {
      absl::Status s = conn_->ceph_msg_revoke(m);
      if (!s.ok() && revoke_error_.ok()) revoke_error_ = s;
    });
  }

  const Case& case_;
  model::EventLoop* loop_;
  msgr::Decoder decoder_;
  msgr::CephConnection* conn_ = nullptr;
  std::vector<msgr::CephMsgRef> msgs_;
  std::vector<msgr::DecodedMessage> decoded_;
  std::vector<std::pair<TimeNs, TimeNs>> spans_ = {};
  std::vector<uint64_t> accepted_;
  std::vector<PacketRecord> packets_;
  std::vector<std::pair<TimeNs, uint64_t>> acks_;  // (arrival at the sender, cumulative ack offset)
  std::string decoder_error_;
  absl::Status revoke_error_;
  uint64_t hash_ = 0xcbf29ce484222325ULL;
  uint64_t delivered_ = 0;
  uint64_t snd_max_ = 0;
  uint64_t eagains_ = 0;
  uint32_t base_ = 0;
  bool have_base_ = false;
  bool revoked_ = false;
};

model::ConnectionConfig MapConfig(const NetConfig& n) {
  model::ConnectionConfig c;
  c.mss = n.mss;
  c.mtu = n.mss + 40 + 12;  // IPv4 + TCP headers + timestamp option
  c.timestamps = true;
  c.tso = n.tso;
  c.nodelay = n.nodelay;
  c.autocorking = n.autocorking;
  c.sndbuf = n.sndbuf;
  c.initcwnd = n.initcwnd;
  c.cwnd_clamp = n.cwnd_clamp;
  c.link_bps = n.link_bps;
  c.one_way_delay_ns = n.one_way_delay_ns;
  c.tx_completion_ns = n.tx_completion_ns;
  c.call_cost_ns = n.call_cost_ns;
  c.hz = n.hz;
  c.track_payload = true;
  c.full_trace = true;
  c.peer.rcvbuf = n.rcvbuf;
  c.peer.init_rcv_wnd_segs = n.init_rcv_wnd_segs;
  c.peer.delayed_ack = n.delayed_ack;
  c.peer.ack_every_segs = n.ack_every_segs;
  c.peer.gro = n.gro == GroModeP::kOff ? model::GroMode::kOff : model::GroMode::kBatch;
  c.peer.gro_flush_ns = n.gro_flush_ns;
  return c;
}

absl::StatusOr<msgr::WriterPolicy> MakePolicy(const Case& c) {
  using msgr::CallContext;
  using msgr::CallPart;
  const msgr::WriterPolicy notlast = msgr::MakeWriterPolicy(msgr::WriterKind::kV1Notlast);
  switch (c.writer) {
    case Writer::kV1Legacy:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1Legacy);
    case Writer::kV1Notlast:
      return notlast;
    case Writer::kV1Cork:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1Cork);
    case Writer::kV1Splice:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1Splice);
    case Writer::kV2:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV2);
    case Writer::kAssigned: {
      // Global piece index = pieces of earlier messages + piece within the message.
      std::vector<uint32_t> first_piece;
      uint32_t acc = 0;
      for (const MessageLayout& m : c.layout.messages) {
        first_piece.push_back(acc);
        acc += PieceCount(m);
      }
      std::vector<PieceFlags> a = c.assignment;
      return msgr::MakeHookPolicy([notlast, first_piece, a](const CallContext& ctx) {
        if (ctx.part != CallPart::kData || ctx.msg_index >= first_piece.size()) return PolicyFlags(notlast, ctx);
        const size_t i = first_piece[ctx.msg_index] + ctx.piece_index;
        if (i >= a.size()) return PolicyFlags(notlast, ctx);
        switch (a[i]) {
          case PieceFlags::kNone: return 0;
          case PieceFlags::kMore: return model::kMsgMore;
          case PieceFlags::kMoreNotlast: return model::kMsgMore | model::kMsgSendpageNotlast;
        }
        return 0;
      });
    }
    case Writer::kMutantNotlastStuck:
      // v5.0 flags, except that NOTLAST is never cleared: the payload's last
      // piece and the zero fill's last chunk keep MORE|NOTLAST, so
      // do_tcp_sendpages never pushes them (the pre-35f9c09fe9c7 stall).
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        if (ctx.part == CallPart::kData || ctx.part == CallPart::kSkip) {
          return model::kMsgMore | model::kMsgSendpageNotlast;
        }
        return PolicyFlags(notlast, ctx);
      });
    case Writer::kMutantPushEveryPage:
      // Every data piece without MORE: tcp_push with Nagle off after each page.
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        if (ctx.part == CallPart::kData) return 0;
        return PolicyFlags(notlast, ctx);
      });
  }
  return absl::InvalidArgumentError("unknown writer");
}

// Per-process counter for the determinism negative control only.
uint64_t NextPerturbation() {
  static uint64_t counter = 0;
  return ++counter;
}

}  // namespace

absl::StatusOr<Outcome> RunCase(const Case& c) {
  if (absl::Status st = ValidateCase(c); !st.ok()) return st;
  absl::StatusOr<model::Profile> profile = model::ProfileByName(c.profile);
  if (!profile.ok()) return profile.status();
  const bool is_v1_sendpage = c.writer != Writer::kV1Splice && c.writer != Writer::kV2;
  if (is_v1_sendpage && !profile->has_sendpage) {
    return absl::FailedPreconditionError(absl::StrFormat("%s needs sendpage, absent on %s", WriterName(c.writer), c.profile));
  }
  if (c.writer == Writer::kV1Splice && !profile->has_splice_pages) {
    return absl::FailedPreconditionError(absl::StrFormat("v1-splice needs MSG_SPLICE_PAGES, absent on %s", c.profile));
  }
  if (c.writer == Writer::kV2 && c.layout.revoke.has_value()) {
    return absl::FailedPreconditionError("the messenger does not model msgr2 revoke");
  }
  model::ConnectionConfig cfg = MapConfig(c.net);
  if (absl::Status st = model::ValidateConfig(cfg); !st.ok()) return st;
  absl::StatusOr<msgr::WriterPolicy> policy = MakePolicy(c);
  if (!policy.ok()) return policy.status();

  model::EventLoop loop;
  const msgr::Protocol protocol = c.writer == Writer::kV2 ? msgr::Protocol::kV2 : msgr::Protocol::kV1;
  Recorder rec(c, &loop, protocol);
  absl::StatusOr<std::unique_ptr<model::Connection>> conn = model::Connection::Create(&loop, cfg, *profile, &rec);
  if (!conn.ok()) return conn.status();

  msgr::ConnectionOptions opts;
  opts.policy = *policy;
  opts.has_sendpage = profile->has_sendpage;
  opts.costs.crc_ns_per_4k = c.net.crc_ns_per_page;
  opts.costs.per_call_ns = c.net.call_cost_ns;
  opts.costs.prepare_message_ns = c.net.call_cost_ns;
  opts.costs.worker_wakeup_ns = 0;
  opts.costs.call_cost_ns = c.net.call_cost_ns;
  msgr::CephConnection ceph(&loop, &(*conn)->socket(), opts, &rec);

  msgr::PagePool pool(kPoolPages, c.seed);
  std::vector<msgr::CephMsgRef> msgs;
  for (size_t i = 0; i < c.layout.messages.size(); ++i) {
    const bool more = c.layout.more_to_follow && i + 1 < c.layout.messages.size();
    absl::StatusOr<msgr::CephMsgRef> m = BuildMessage(c.layout.messages[i], i, c.seed, more, &pool);
    if (!m.ok()) return m.status();
    msgs.push_back(*m);
  }
  rec.set_connection(&ceph, msgs);
  // Every message is queued at t = 0, back to back (ceph_con_send each).
  loop.ScheduleAt(0, [&ceph, &msgs] {
    for (const msgr::CephMsgRef& m : msgs) ceph.ceph_con_send(m);
  });

  auto done = [&] {
    return loop.now() > 0 && ceph.idle() && ceph.out_queue_size() == 0 && (*conn)->unacked_bytes() == 0;
  };
  TimeNs t = 0;
  TimeNs finished_at = -1;
  while (t < kLivenessHorizonNs && !loop.empty()) {
    t = std::min(t + kSliceNs, kLivenessHorizonNs);
    loop.RunUntil(t);
    if (done()) {
      finished_at = loop.now();
      break;
    }
  }

  Outcome o;
  o.mss = c.net.mss;
  o.packets = rec.packets_;
  o.bytes_written = ceph.bytes_written();
  o.bytes_delivered = rec.delivered_;
  o.horizon_ns = kLivenessHorizonNs;
  o.messages_decoded = static_cast<uint32_t>(rec.decoded_.size());
  uint32_t started = 0;
  for (const auto& span : rec.spans_) started += span.first >= 0 ? 1 : 0;
  o.messages_expected = started;
  for (const msgr::DecodedMessage& d : rec.decoded_) o.message_ends.push_back(d.stream_end);
  // Decoder verdict: its own status, then the content of every complete
  // (not revoked) message against what was queued.
  absl::Status dst = rec.decoder_.status();
  o.decoder_ok = dst.ok() && rec.decoder_error_.empty() && rec.revoke_error_.ok();
  if (!dst.ok()) o.decoder_error = std::string(dst.message());
  if (!rec.decoder_error_.empty()) o.decoder_error = rec.decoder_error_;
  if (!rec.revoke_error_.ok()) o.decoder_error = std::string(rec.revoke_error_.message());
  for (const msgr::DecodedMessage& d : rec.decoded_) {
    if (!o.decoder_ok || d.aborted) continue;
    const uint64_t idx = d.hdr.tid - 1;
    if (idx >= msgs.size()) {
      o.decoder_ok = false;
      o.decoder_error = absl::StrFormat("decoded tid %u that was never sent", d.hdr.tid);
      break;
    }
    const msgr::CephMsg& sent = *msgs[idx];
    const std::vector<uint8_t> middle = sent.middle ? *sent.middle : std::vector<uint8_t>{};
    if (d.front != sent.front || d.middle != middle || d.data != msgr::FlattenData(sent)) {
      o.decoder_ok = false;
      o.decoder_error = absl::StrFormat("message %u: payload differs from what was sent", idx);
    }
  }
  const bool completed = finished_at >= 0;
  if (completed && !rec.decoder_.at_boundary()) {
    o.decoder_ok = false;
    o.decoder_error = absl::StrFormat("stream ends inside a frame at offset %u", rec.decoder_.offset());
  }
  if (!ceph.error().ok()) {
    o.decoder_ok = false;
    o.decoder_error = absl::StrCat("connection error: ", ceph.error().message());
  }
  // Completion: all written and acknowledged. The time is the arrival of the
  // ACK that covered the last byte.
  const model::Counters& counters = (*conn)->socket().counters();
  const uint64_t probe0_packets =
      counters.packets_by_reason[static_cast<int>(model::PushReason::kProbe0)];
  o.completed = completed;
  if (completed) {
    o.completion_ns = finished_at;
    for (const auto& [at, off] : rec.acks_) {
      if (off >= o.bytes_written) {
        o.completion_ns = std::min(at, finished_at);
        break;
      }
    }
  } else {
    model::TcpInfo info = (*conn)->socket().info();
    o.stall_info = absl::StrFormat(
        "at %d ns: writer idle=%d queued=%u, socket unacked=%u bytes, notsent=%u, packets_out=%u, cwnd=%u, snd_wnd=%u, "
        "loop %s",
        loop.now(), ceph.idle(), ceph.out_queue_size(), (*conn)->unacked_bytes(), info.notsent_bytes, info.unacked,
        info.snd_cwnd, info.snd_wnd, loop.empty() ? "empty (nothing will ever happen)" : "still has events");
  }
  o.probe0_packets = probe0_packets;
  // Quiescence: a call hit the send-buffer limit, or an ACK arrived or an
  // asynchronously pushed packet left between a message's first socket call
  // and its footer. (TX completions are not visible here; they show up as
  // kTsq packets when they send anything.)
  bool async = rec.eagains_ > 0;
  for (const auto& span : rec.spans_) {
    if (span.first < 0) continue;
    const TimeNs end = span.second >= 0 ? span.second : loop.now();
    for (const auto& ack : rec.acks_) {
      if (ack.first > span.first && ack.first <= end) async = true;
    }
    for (const PacketRecord& p : rec.packets_) {
      if (IsAsyncReason(static_cast<model::PushReason>(p.reason)) && p.time > span.first && p.time <= end) {
        async = true;
      }
    }
  }
  o.async_during_write = async;
  uint64_t h = rec.hash_;
  if (c.mutation.perturb_trace) h = Mix(h, NextPerturbation());
  o.trace_hash = h;
  o.invariants = (*conn)->CheckInvariants();
  o.counters["autocorks"] = counters.autocorks;
  o.counters["tso_deferrals"] = counters.tso_deferrals;
  o.counters["eagains"] = counters.eagains;
  o.counters["tsq_throttles"] = counters.tsq_throttles;
  o.counters["nagle_holds"] = counters.nagle_holds;
  o.counters["cork_holds"] = counters.cork_holds;
  o.counters["probe0_fires"] = counters.probe0_fires;
  o.counters["tlp_fires"] = counters.tlp_fires;
  o.counters["rto_fires"] = counters.rto_fires;
  return o;
}

}  // namespace sendsim::props
