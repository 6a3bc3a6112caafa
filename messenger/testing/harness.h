#ifndef SENDSIM_MESSENGER_TESTING_HARNESS_H_
#define SENDSIM_MESSENGER_TESTING_HARNESS_H_

// A CephConnection on a FakeSocket and its own EventLoop, plus helpers that
// render recorded calls as "kind bytes FLAGS" lines for flag-matrix checks.

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "messenger/connection.h"
#include "messenger/decoder.h"
#include "messenger/message.h"
#include "messenger/page_pool.h"
#include "messenger/call_tag.h"
#include "messenger/testing/fake_socket.h"
#include "model/constants.h"
#include "model/event_loop.h"

namespace sendsim::messenger::testing {

struct Harness {
  explicit Harness(ConnectionOptions o, uint64_t budget = FakeSocket::kUnlimited)
      : sock(budget, &loop), conn(&loop, &sock, std::move(o)) {}
  model::EventLoop loop;
  FakeSocket sock;
  CephConnection conn;
};

inline std::string FlagNames(int f) {
  std::vector<std::string> n;
  if ((f & model::kMsgDontwait) == 0) n.push_back("!DONTWAIT");
  if ((f & model::kMsgNosignal) == 0) n.push_back("!NOSIGNAL");
  if (f & model::kMsgMore) n.push_back("MORE");
  if (f & model::kMsgEor) n.push_back("EOR");
  if (f & model::kMsgSendpageNotlast) n.push_back("NOTLAST");
  if (f & model::kMsgSplicePages) n.push_back("SPLICE");
  return n.empty() ? "-" : absl::StrJoin(n, "|");
}

inline std::string Describe(const RecordedCall& c) {
  switch (c.kind) {
    case CallKind::kSetCork:
      return absl::StrFormat("cork %d", c.value);
    case CallKind::kSendmsg:
      return absl::StrFormat("sendmsg %u %s", c.len, FlagNames(c.flags));
    case CallKind::kSendpage:
      return absl::StrFormat("sendpage %u %s", c.len, FlagNames(c.flags));
    case CallKind::kSendmsgBvec:
      return absl::StrFormat("bvec %u %s", c.len, FlagNames(c.flags));
  }
  return "?";
}

inline std::vector<std::string> DescribeAll(const std::vector<RecordedCall>& calls, size_t from = 0) {
  std::vector<std::string> out;
  for (size_t i = from; i < calls.size(); ++i) out.push_back(Describe(calls[i]));
  return out;
}

// Decodes a whole stream; returns the messages (and the status via *st).
inline std::vector<DecodedMessage> DecodeAll(const std::vector<uint8_t>& stream, DecoderOptions o,
                                             absl::Status* st, size_t chunk = SIZE_MAX) {
  Decoder d(o);
  std::vector<DecodedMessage> out;
  d.on_message = [&out](const DecodedMessage& m) { out.push_back(m); };
  for (size_t i = 0; i < stream.size() && d.status().ok(); i += chunk) {
    (void)d.Feed(0, stream.data() + i, std::min(chunk, stream.size() - i));
  }
  *st = d.status();
  if (st->ok() && !d.at_boundary()) *st = absl::DataLossError("stream ends inside a frame");
  return out;
}

}  // namespace sendsim::messenger::testing

#endif  // SENDSIM_MESSENGER_TESTING_HARNESS_H_
