#include "props/run_case.h"

#include <algorithm>
#include <memory>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "messenger/connection.h"
#include "messenger/decoder.h"
#include "messenger/message.h"
#include "messenger/writer_policy.h"
#include "model/config.h"
#include "model/connection.h"
#include "model/constants.h"
#include "model/event_loop.h"
#include "model/profile.h"
#include "props/payload.h"
#include "props/recorder.h"
#include "props/setup.h"
#include "scenario/simulation.h"

namespace sendsim::props {
namespace {

namespace msgr = ::sendsim::messenger;
using model::TimeNs;

// Loop slices: completion is checked between slices so that a finished run
// stops early instead of idling to the horizon.
constexpr TimeNs kSliceNs = 5 * model::kNsPerMs;

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

// The writer must exist on the profile, and the messenger must model what
// the layout asks of it.
absl::Status CheckApplicable(const Case& c, const model::Profile& profile) {
  // The hook writers (assigned, rule, mutants) are the v1 skeleton: sendpage.
  const WriterKind kind = c.writer.kind == WriterKind::kHook ? WriterKind::kV1Legacy : c.writer.kind;
  if (absl::Status st = msgr::WriterAvailable(kind, profile.has_sendpage, profile.has_splice_pages, c.net.kernel);
      !st.ok()) {
    return st;
  }
  if (c.writer == WriterKind::kV2 && c.layout.revoke.has_value()) {
    return absl::FailedPreconditionError("the messenger does not model msgr2 revoke");
  }
  if (c.writer == WriterKind::kV1Sendmsg && c.layout.revoke.has_value()) {
    return absl::FailedPreconditionError("the messenger does not model a v1-sendmsg revoke");
  }
  return absl::OkStatus();
}

// Decoder verdict: its own status, then the content of every complete (not
// revoked) message against what was queued.
void JudgeDecoder(const Recorder& rec, const std::vector<msgr::CephMsgRef>& msgs, bool completed,
                  const msgr::CephConnection& ceph, Outcome* o) {
  const absl::Status dst = rec.decoder().status();
  o->decoder_ok = dst.ok() && rec.delivery_error().empty() && rec.revoke_error().ok();
  if (!dst.ok()) o->decoder_error = std::string(dst.message());
  if (!rec.delivery_error().empty()) o->decoder_error = rec.delivery_error();
  if (!rec.revoke_error().ok()) o->decoder_error = std::string(rec.revoke_error().message());
  for (const msgr::DecodedMessage& d : rec.decoded()) {
    o->message_ends.push_back(d.stream_end);
    if (!o->decoder_ok || d.aborted) continue;
    const uint64_t idx = d.hdr.tid - 1;
    if (idx >= msgs.size()) {
      o->decoder_ok = false;
      o->decoder_error = absl::StrFormat("decoded tid %u that was never sent", d.hdr.tid);
      continue;
    }
    const msgr::CephMsg& sent = *msgs[idx];
    const bool middle_ok = sent.middle ? d.middle == *sent.middle : d.middle.empty();
    if (d.front != sent.front || !middle_ok || d.data != msgr::FlattenData(sent)) {
      o->decoder_ok = false;
      o->decoder_error = absl::StrFormat("message %u: payload differs from what was sent", idx);
    }
  }
  if (completed && !rec.decoder().at_boundary()) {
    o->decoder_ok = false;
    o->decoder_error = absl::StrFormat("stream ends inside a frame at offset %u", rec.decoder().offset());
  }
  if (!ceph.error().ok()) {
    o->decoder_ok = false;
    o->decoder_error = absl::StrCat("connection error: ", ceph.error().message());
  }
}

// Quiescence: a call hit the send-buffer limit, or an ACK arrived or an
// asynchronously pushed packet left between a message's first socket call
// and its footer. (TX completions are not visible here; they show up as
// kTsq packets when they send anything.)
bool AsyncDuringWrite(const Recorder& rec, TimeNs now) {
  if (rec.eagains() > 0) return true;
  for (const auto& span : rec.spans()) {
    if (span.first < 0) continue;
    const TimeNs end = span.second >= 0 ? span.second : now;
    for (const auto& ack : rec.acks()) {
      if (ack.first > span.first && ack.first <= end) return true;
    }
    for (const PacketRecord& p : rec.packets()) {
      if (IsAsyncReason(static_cast<model::PushReason>(p.reason)) && p.time > span.first && p.time <= end) return true;
    }
  }
  return false;
}

// Per-process counter for the determinism negative control only.
uint64_t NextPerturbation() {
  static uint64_t counter = 0;
  return ++counter;
}

// A case's messages through the messenger's CephConnection, all queued at
// t = 0, watched by the Recorder; done when every message is written and
// acknowledged.
class CaseApp : public scenario::Application {
 public:
  CaseApp(const Case& c, bool full) : case_(c), full_(full) {}

  absl::StatusOr<model::Observer*> Prepare(model::EventLoop* loop, const model::Profile& profile,
                                           const model::ConnectionConfig&) override {
    absl::StatusOr<msgr::ConnectionOptions> opts = MessengerOptions(case_, profile.has_sendpage);
    if (!opts.ok()) return opts.status();
    absl::StatusOr<std::vector<msgr::CephMsgRef>> msgs = BuildMessages(case_);
    if (!msgs.ok()) return msgs.status();
    loop_ = loop;
    opts_ = *std::move(opts);
    msgs_ = *std::move(msgs);
    const msgr::Protocol protocol = case_.writer == WriterKind::kV2 ? msgr::Protocol::kV2 : msgr::Protocol::kV1;
    rec_ = std::make_unique<Recorder>(case_, loop, protocol, full_);
    return rec_.get();
  }

  absl::Status Start(model::Connection* conn) override {
    conn_ = conn;
    ceph_ = std::make_unique<msgr::CephConnection>(loop_, &conn->socket(), opts_, rec_.get());
    rec_->set_connection(ceph_.get(), &msgs_);
    // Every message is queued at t = 0, back to back (ceph_con_send each).
    loop_->ScheduleAt(0, [this] {
      for (const msgr::CephMsgRef& m : msgs_) ceph_->ceph_con_send(m);
    });
    return absl::OkStatus();
  }

  bool Done() const override {
    return loop_->now() > 0 && ceph_->idle() && ceph_->out_queue_size() == 0 && conn_->unacked_bytes() == 0;
  }

  Recorder& rec() { return *rec_; }
  const msgr::CephConnection& ceph() const { return *ceph_; }
  const std::vector<msgr::CephMsgRef>& msgs() const { return msgs_; }

 private:
  const Case& case_;
  bool full_;
  model::EventLoop* loop_ = nullptr;
  model::Connection* conn_ = nullptr;
  msgr::ConnectionOptions opts_;
  std::vector<msgr::CephMsgRef> msgs_;
  std::unique_ptr<Recorder> rec_;
  std::unique_ptr<msgr::CephConnection> ceph_;
};

}  // namespace

absl::Status CheckCaseRunnable(const Case& c) {
  if (absl::Status st = ValidateCase(c); !st.ok()) return st;
  if (absl::Status st = ValidateCaseSetup(c); !st.ok()) return st;
  absl::StatusOr<model::Profile> profile = model::ProfileByName(c.net.kernel);
  if (!profile.ok()) return profile.status();
  return CheckApplicable(c, *profile);
}

absl::StatusOr<Outcome> RunCase(const Case& c, RunDepth depth) {
  const bool full = depth == RunDepth::kFull;
  if (absl::Status st = CheckCaseRunnable(c); !st.ok()) return st;
  const TimeNs horizon = LivenessHorizonNs(c);
  scenario::Simulation sim;
  sim.scenario = c.net;
  sim.outputs = {.track_payload = full, .full_trace = true, .record_data_timing = false};
  sim.plan.slice_ns = kSliceNs;
  sim.plan.horizon_ns = horizon;
  CaseApp app(c, full);
  absl::StatusOr<scenario::SimulationResult> run = sim.Run(app);
  if (!run.ok()) return run.status();
  const bool completed = run->app_done;
  const TimeNs finished_at = run->end_ns;
  Recorder& rec = app.rec();
  const msgr::CephConnection& ceph = app.ceph();

  Outcome o;
  o.mss = c.net.mss;
  o.bytes_written = ceph.bytes_written();
  o.bytes_delivered = rec.delivered();
  o.horizon_ns = horizon;
  o.messages_decoded = static_cast<uint32_t>(rec.decoded().size());
  for (const auto& span : rec.spans()) o.messages_expected += span.first >= 0 ? 1 : 0;
  o.stream_checked = full;
  if (full) {
    JudgeDecoder(rec, app.msgs(), completed, ceph, &o);
  } else if (!ceph.error().ok()) {
    o.decoder_error = absl::StrCat("connection error: ", ceph.error().message());
  }
  // Completion: all written and acknowledged. The time is the arrival of the
  // ACK that covered the last byte.
  const model::Counters& counters = run->counters;
  o.completed = completed;
  if (completed) {
    o.completion_ns = finished_at;
    for (const auto& [at, off] : rec.acks()) {
      if (off >= o.bytes_written) {
        o.completion_ns = std::min(at, finished_at);
        break;
      }
    }
  } else {
    const model::TcpInfo& info = run->info;
    o.stall_info = absl::StrFormat(
        "at %d ns: writer idle=%d queued=%u, socket unacked=%u bytes, notsent=%u, packets_out=%u, cwnd=%u, snd_wnd=%u, "
        "loop %s",
        run->end_ns, ceph.idle(), ceph.out_queue_size(), run->unacked_bytes, info.notsent_bytes, info.unacked,
        info.snd_cwnd, info.snd_wnd, run->loop_empty ? "empty (nothing will ever happen)" : "still has events");
  }
  o.probe0_packets = counters.packets_by_reason[static_cast<int>(model::PushReason::kProbe0)];
  o.async_during_write = AsyncDuringWrite(rec, run->end_ns);
  o.trace_hash = c.mutation.perturb_trace ? MixHash(rec.hash(), NextPerturbation()) : rec.hash();
  o.invariants = run->invariants;
  o.counters = {{"autocorks", counters.autocorks},         {"tso_deferrals", counters.tso_deferrals},
                {"eagains", counters.eagains},             {"tsq_throttles", counters.tsq_throttles},
                {"nagle_holds", counters.nagle_holds},     {"cork_holds", counters.cork_holds},
                {"probe0_fires", counters.probe0_fires},   {"tlp_fires", counters.tlp_fires},
                {"rto_fires", counters.rto_fires}};
  o.packets = rec.take_packets();
  return o;
}

}  // namespace sendsim::props
