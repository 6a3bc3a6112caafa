#include "props/setup.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "model/constants.h"
#include "scenario/build.h"
#include "scenario/scenario.h"

namespace sendsim::props {

namespace msgr = ::sendsim::messenger;

absl::Status ValidateCaseSetup(const Case& c) {
  if (c.net.link_mbps > UINT32_MAX) {
    return absl::InvalidArgumentError(
        absl::StrFormat("case: link_bps %d is not a whole number of Mbit/s", c.net.link_mbps * 1'000'000));
  }
  if (absl::Status st = scenario::ValidateNetwork(c.net); !st.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("case: ", st.message()));
  }
  return absl::OkStatus();
}

namespace {

using msgr::CallContext;
using msgr::CallPart;

int PieceBits(PieceFlags f) {
  switch (f) {
    case PieceFlags::kNone: return 0;
    case PieceFlags::kMore: return model::kMsgMore;
    case PieceFlags::kMoreNotlast: return model::kMsgMore | model::kMsgSendpageNotlast;
  }
  return 0;
}

// HookWriter::kRule: the rule's flags on data pieces; libceph's elsewhere. The
// zero fill of a revoke keeps v5.0's flags (a NOTLAST last chunk would stall).
msgr::WriterPolicy RulePolicy(const FlagRule& r, const msgr::WriterPolicy& notlast) {
  return msgr::MakeHookPolicy(
      [notlast, r](const CallContext& ctx) {
        if (ctx.part != CallPart::kData) return PolicyFlags(notlast, ctx);
        return PieceBits(ctx.last_of_payload ? r.last : r.nonlast);
      },
      r.cork);
}

// HookWriter::kAssigned: each data piece's flags from the assignment.
msgr::WriterPolicy AssignedPolicy(const Case& c, const msgr::WriterPolicy& notlast) {
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
    return PieceBits(a[i]);
  });
}

// The negative controls: v1-notlast's flags, changed.
absl::StatusOr<msgr::WriterPolicy> MutantPolicy(HookWriter hook, uint64_t seed, const msgr::WriterPolicy& notlast) {
  switch (hook) {
    case HookWriter::kMutantNotlastStuck:
      // v5.0 flags, except that NOTLAST is never cleared: the payload's last
      // piece and the zero fill's last chunk keep MORE|NOTLAST, so
      // do_tcp_sendpages never pushes them (the pre-35f9c09fe9c7 stall).
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        if (ctx.part == CallPart::kData || ctx.part == CallPart::kSkip) {
          return model::kMsgMore | model::kMsgSendpageNotlast;
        }
        return PolicyFlags(notlast, ctx);
      });
    case HookWriter::kMutantPushEveryPage:
      // Every data piece without MORE: tcp_push with Nagle off after each page.
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        if (ctx.part == CallPart::kData) return 0;
        return PolicyFlags(notlast, ctx);
      });
    case HookWriter::kMutantDropNotlast:
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        return PolicyFlags(notlast, ctx) & ~model::kMsgSendpageNotlast;
      });
    case HookWriter::kMutantDropMore:
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        const int f = PolicyFlags(notlast, ctx);
        return ctx.part == CallPart::kData ? f & ~model::kMsgMore : f;
      });
    case HookWriter::kMutantPushRandom:
      // A bare push on a data piece whose (seed, message, piece) hash is 0
      // mod 3: deterministic per case, different from case to case.
      return msgr::MakeHookPolicy([notlast, seed](const CallContext& ctx) {
        if (ctx.part != CallPart::kData) return PolicyFlags(notlast, ctx);
        uint64_t z = seed * 0x9e3779b97f4a7c15ULL + ctx.msg_index * 0xbf58476d1ce4e5b9ULL + ctx.piece_index + 1;
        z = (z ^ (z >> 31)) * 0x94d049bb133111ebULL;
        z ^= z >> 29;
        return z % 3 == 0 ? 0 : PolicyFlags(notlast, ctx);
      });
    case HookWriter::kControlNoEor:
      // tcp_sendmsg_locked sets skb->eor only for MSG_EOR; without it the
      // footer's skb stays open to the next message's bytes.
      return msgr::MakeHookPolicy([notlast](const CallContext& ctx) {
        return PolicyFlags(notlast, ctx) & ~model::kMsgEor;
      });
    default:
      return absl::InvalidArgumentError("unknown writer");
  }
}

absl::StatusOr<msgr::WriterPolicy> MakePolicy(const Case& c) {
  const msgr::WriterPolicy notlast = msgr::MakeWriterPolicy(WriterKind::kV1Notlast);
  switch (c.writer.hook) {
    case HookWriter::kNone:
      if (c.writer.kind == WriterKind::kHook) return absl::InvalidArgumentError("unknown writer");
      return msgr::MakeWriterPolicy(c.writer.kind);
    case HookWriter::kRule:
      return RulePolicy(c.rule, notlast);
    case HookWriter::kAssigned:
      return AssignedPolicy(c, notlast);
    default:
      return MutantPolicy(c.writer.hook, c.seed, notlast);
  }
}

}  // namespace

absl::StatusOr<msgr::ConnectionOptions> MessengerOptions(const Case& c, bool has_sendpage) {
  absl::StatusOr<msgr::WriterPolicy> policy = MakePolicy(c);
  if (!policy.ok()) return policy.status();
  // The scenario's messenger options (the crc cost), the case's writer, and
  // every other CPU cost one call's worth.
  msgr::ConnectionOptions opts = scenario::BuildConnectionOptions(c.net, WriterKind::kV1Notlast);
  opts.policy = *std::move(policy);
  opts.has_sendpage = has_sendpage;
  const model::TimeNs call_ns = static_cast<model::TimeNs>(c.net.call_cost_ns);
  opts.costs.per_call_ns = call_ns;
  opts.costs.prepare_message_ns = call_ns;
  opts.costs.worker_wakeup_ns = 0;
  opts.costs.call_cost_ns = call_ns;
  return opts;
}

}  // namespace sendsim::props
