// Property: however the socket pushes back (any sequence of byte budgets,
// each ending in -EAGAIN and a write-space wakeup) and whatever flags a
// writer chooses, the byte stream is the one an uninterrupted write produces,
// and the decoder rebuilds every message exactly.

#include <vector>

#include "gtest/gtest.h"
// rapidcheck/gtest.h needs GoogleTest declared first.
#include <rapidcheck/gtest.h>
#include "messenger/testing/harness.h"
#include "messenger/workload.h"

namespace sendsim::messenger {
namespace {

using testing::FakeSocket;
using testing::Harness;

struct Outcome {
  std::vector<uint8_t> stream;
  bool clean = false;
};

Outcome Run(const ConnectionOptions& o, uint64_t seed, uint64_t nmsgs, const std::vector<uint32_t>& grants,
            uint64_t incoming) {
  Outcome out;
  PagePool pool(8, seed);
  const std::vector<MessageSpec> specs = MixedWorkload(nmsgs, seed, 0);
  Harness h(o, grants.empty() ? FakeSocket::kUnlimited : grants[0]);
  h.conn.OnIncomingMessages(incoming);
  for (uint64_t i = 0; i < specs.size(); ++i) {
    auto m = BuildMessage(specs[i], i, seed, &pool);
    if (!m.ok()) return out;
    h.conn.ceph_con_send(*m);
  }
  h.loop.Run();
  for (size_t i = 1; i <= grants.size() && !h.conn.idle(); ++i) {
    h.sock.Grant(i < grants.size() ? grants[i] : FakeSocket::kUnlimited);
    h.loop.Run();
  }
  out.clean = h.conn.idle() && h.conn.error().ok();
  out.stream = h.sock.stream();
  return out;
}

RC_GTEST_PROP(ResumeProperty, StreamIsIndependentOfPushBackAndFlags, ()) {
  const auto seed = *rc::gen::inRange<uint64_t>(1, 1'000'000);
  const auto nmsgs = *rc::gen::inRange<uint64_t>(1, 5);
  const auto incoming = *rc::gen::inRange<uint64_t>(0, 3);
  const auto kind = *rc::gen::element(WriterKind::kV1Legacy, WriterKind::kV1Notlast, WriterKind::kV1Cork,
                                      WriterKind::kV1Splice, WriterKind::kV2, WriterKind::kHook);
  const auto grants = *rc::gen::container<std::vector<uint32_t>>(rc::gen::inRange<uint32_t>(0, 9000));
  const auto hook_flags = *rc::gen::container<std::vector<int>>(
      rc::gen::element(0, model::kMsgMore, model::kMsgEor, model::kMsgMore | model::kMsgSendpageNotlast));

  ConnectionOptions o;
  if (kind == WriterKind::kHook) {
    size_t n = 0;
    o.policy = MakeHookPolicy([hook_flags, n](const CallContext&) mutable {
      return hook_flags.empty() ? 0 : hook_flags[n++ % hook_flags.size()];
    });
  } else {
    o.policy = MakeWriterPolicy(kind);
  }
  ConnectionOptions ref_opts;
  ref_opts.policy = MakeWriterPolicy(kind == WriterKind::kV2 ? WriterKind::kV2 : WriterKind::kV1Legacy);

  const Outcome ref = Run(ref_opts, seed, nmsgs, {}, incoming);
  const Outcome got = Run(o, seed, nmsgs, grants, incoming);
  RC_ASSERT(ref.clean);
  RC_ASSERT(got.clean);
  RC_ASSERT(got.stream == ref.stream);

  DecoderOptions d;
  d.protocol = kind == WriterKind::kV2 ? Protocol::kV2 : Protocol::kV1;
  absl::Status st;
  const auto msgs = testing::DecodeAll(got.stream, d, &st);
  RC_ASSERT(st.ok());
  RC_ASSERT(msgs.size() == nmsgs);
  PagePool pool(8, seed);
  const std::vector<MessageSpec> specs = MixedWorkload(nmsgs, seed, 0);
  for (uint64_t i = 0; i < nmsgs; ++i) {
    auto m = BuildMessage(specs[i], i, seed, &pool);
    RC_ASSERT(m.ok());
    RC_ASSERT(msgs[i].hdr.seq == i + 1);
    RC_ASSERT(msgs[i].front == (*m)->front);
    RC_ASSERT(msgs[i].data == FlattenData(**m));
  }
}

}  // namespace
}  // namespace sendsim::messenger
