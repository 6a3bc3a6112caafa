#include "props/setup.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "scenario/scenario.h"

namespace sendsim::props {

namespace msgr = ::sendsim::messenger;

// A case's network as a scenario (props' link rates are whole Mbit/s: the
// generator's choices; case.cc rejects others).
scenario::Scenario CaseScenario(const Case& c) {
  const NetConfig& n = c.net;
  scenario::Scenario s;
  s.kernel = c.profile;
  s.mss = n.mss;
  s.mtu = n.mss + 40 + 12;  // IPv4 + TCP headers + timestamp option
  s.timestamps = true;
  s.tso = n.tso;
  s.nodelay = n.nodelay;
  s.autocorking = n.autocorking;
  s.sndbuf = n.sndbuf;
  s.tcp.initcwnd = n.initcwnd;
  s.tcp.cwnd_clamp = n.cwnd_clamp;
  s.link_mbps = n.link_bps / 1'000'000;
  s.rtt_ns = 2 * static_cast<uint64_t>(n.one_way_delay_ns);
  s.tx_completion_ns = static_cast<uint64_t>(n.tx_completion_ns);
  s.call_cost_ns = static_cast<uint64_t>(n.call_cost_ns);
  s.hz = static_cast<uint32_t>(n.hz);
  s.host.tx_orphan_at_xmit = n.tun;
  s.receiver.rcvbuf = n.rcvbuf;
  s.receiver.init_rcv_wnd_segs = n.init_rcv_wnd_segs;
  s.delayed_ack = n.delayed_ack;
  s.ack_every = n.ack_every_segs;
  s.gro = n.gro == GroModeP::kOff ? scenario::GroMode::kOff : scenario::GroMode::kBatch;
  s.gro_flush_ns = static_cast<uint64_t>(n.gro_flush_ns);
  // The model's own receiver latency: none (the CLI's default is 5 us).
  s.ack_proc_ns = 0;
  return s;
}

absl::Status ValidateCaseSetup(const Case& c) {
  const scenario::Scenario s = CaseScenario(c);
  if (c.net.link_bps % 1'000'000 != 0 || c.net.link_bps / 1'000'000 > UINT32_MAX) {
    return absl::InvalidArgumentError(absl::StrFormat("case: link_bps %d is not a whole number of Mbit/s", c.net.link_bps));
  }
  if (absl::Status st = scenario::ValidateNetwork(s); !st.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("case: ", st.message()));
  }
  return absl::OkStatus();
}

namespace {

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
    case Writer::kV1More:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1More);
    case Writer::kV1Sendmsg:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1Sendmsg);
    case Writer::kV1CorkBatch:
      return msgr::MakeWriterPolicy(msgr::WriterKind::kV1CorkBatch);
    case Writer::kRule: {
      // The rule's flags on data pieces; libceph's elsewhere. The zero fill
      // of a revoke keeps v5.0's flags (a NOTLAST last chunk would stall).
      const FlagRule r = c.rule;
      auto bits = [](PieceFlags f) {
        return f == PieceFlags::kNone   ? 0
               : f == PieceFlags::kMore ? model::kMsgMore
                                        : model::kMsgMore | model::kMsgSendpageNotlast;
      };
      return msgr::MakeHookPolicy(
          [notlast, r, bits](const CallContext& ctx) {
            if (ctx.part != CallPart::kData) return PolicyFlags(notlast, ctx);
            return bits(ctx.last_of_payload ? r.last : r.nonlast);
          },
          r.cork);
    }
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
    case Writer::kMutantDropNotlast:
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        return PolicyFlags(notlast, ctx) & ~model::kMsgSendpageNotlast;
      });
    case Writer::kMutantDropMore:
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        const int f = PolicyFlags(notlast, ctx);
        return ctx.part == CallPart::kData ? f & ~model::kMsgMore : f;
      });
    case Writer::kMutantPushRandom: {
      // A bare push on a data piece whose (seed, message, piece) hash is 0
      // mod 3: deterministic per case, different from case to case.
      const uint64_t seed = c.seed;
      return msgr::MakeHookPolicy([notlast, seed](const CallContext& ctx) {
        if (ctx.part != CallPart::kData) return PolicyFlags(notlast, ctx);
        uint64_t z = seed * 0x9e3779b97f4a7c15ULL + ctx.msg_index * 0xbf58476d1ce4e5b9ULL + ctx.piece_index + 1;
        z = (z ^ (z >> 31)) * 0x94d049bb133111ebULL;
        z ^= z >> 29;
        return z % 3 == 0 ? 0 : PolicyFlags(notlast, ctx);
      });
    }
    case Writer::kControlNoEor:
      // tcp_sendmsg_locked sets skb->eor only for MSG_EOR; without it the
      // footer's skb stays open to the next message's bytes.
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        return PolicyFlags(notlast, ctx) & ~model::kMsgEor;
      });
  }
  return absl::InvalidArgumentError("unknown writer");
}

}  // namespace

absl::StatusOr<msgr::ConnectionOptions> MessengerOptions(const Case& c, bool has_sendpage) {
  absl::StatusOr<msgr::WriterPolicy> policy = MakePolicy(c);
  if (!policy.ok()) return policy.status();
  msgr::ConnectionOptions opts;
  opts.policy = *std::move(policy);
  opts.has_sendpage = has_sendpage;
  opts.costs.crc_ns_per_4k = c.net.crc_ns_per_page;
  opts.costs.per_call_ns = c.net.call_cost_ns;
  opts.costs.prepare_message_ns = c.net.call_cost_ns;
  opts.costs.worker_wakeup_ns = 0;
  opts.costs.call_cost_ns = c.net.call_cost_ns;
  return opts;
}

}  // namespace sendsim::props
