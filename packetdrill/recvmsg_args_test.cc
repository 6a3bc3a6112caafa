#include "packetdrill/recvmsg_args.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "packetdrill/parser.h"

namespace sendsim::packetdrill {
namespace {

using ::testing::HasSubstr;

// The one system call of a one-line script.
SyscallEvent Call(const std::string& line) {
  absl::StatusOr<Script> s = ParseScript("t.pkt", "0 " + line + "\n");
  EXPECT_TRUE(s.ok()) << s.status();
  return std::get<SyscallEvent>(s->events.at(0).body);
}

TEST(RecvmsgArgsTest, ParsesIovecsFlagsAndControl) {
  absl::StatusOr<RecvmsgArgs> a = ParseRecvmsgArgs(Call(
      "recvmsg(4, {msg_name(...)=..., msg_iov(2)=[{..., 100}, {..., 50}], msg_flags=MSG_ERRQUEUE, "
      "msg_control=[{cmsg_level=CMSG_LEVEL_IP, cmsg_type=CMSG_TYPE_RECVERR, cmsg_data={ee_errno=0, "
      "ee_origin=SO_EE_ORIGIN_ZEROCOPY, ee_type=0, ee_code=SO_EE_CODE_ZEROCOPY_COPIED, ee_info=3, ee_data=7}}, "
      "{cmsg_level=SOL_TCP, cmsg_type=TCP_CM_INQ, cmsg_data=12}]}, MSG_ERRQUEUE) = 0"));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->total, 150u);
  EXPECT_EQ(a->flags, 0x2000);
  EXPECT_EQ(a->want_msg_flags, 0x2000);
  ASSERT_EQ(a->want_control.size(), 2u);
  EXPECT_TRUE(a->want_control[0].recverr);
  EXPECT_EQ(a->want_control[0].ee, (ExtendedErr{0, 5, 0, 1, 3, 7}));
  EXPECT_EQ(a->want_control[1].value, 12);
  // CMSG_SPACE(16 + 16) = 48, CMSG_SPACE(4) = 24.
  EXPECT_EQ(a->control_len, 72u);
}

TEST(RecvmsgArgsTest, ReadvAndAbsentChecks) {
  absl::StatusOr<RecvmsgArgs> a = ParseRecvmsgArgs(Call("readv(4, [{..., 10}, {..., 20}], 2) = 30"));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->total, 30u);
  EXPECT_FALSE(a->want_msg_flags);
  EXPECT_FALSE(a->control_checked);
  a = ParseRecvmsgArgs(Call("recvmsg(4, {msg_iov(1)=[{..., 10}], msg_flags=..., msg_control=...}, 0) = 10"));
  ASSERT_TRUE(a.ok());
  EXPECT_FALSE(a->want_msg_flags);
  EXPECT_FALSE(a->control_checked);
  EXPECT_EQ(CompareRecvmsg(*a, 0x8, {}), "");
}

// SCM_TIMESTAMPING's software stamp is a script time: it matches within
// the tolerance; {scm_sec=0, scm_nsec=0} matches any time.
TEST(RecvmsgArgsTest, TimestampsMatchWithinTheTolerance) {
  const std::string head =
      "recvmsg(4, {msg_iov(1)=[{..., 0}], msg_flags=MSG_ERRQUEUE, msg_control=[{cmsg_level=SOL_SOCKET, "
      "cmsg_type=SCM_TIMESTAMPING, cmsg_data=";
  absl::StatusOr<RecvmsgArgs> a = ParseRecvmsgArgs(Call(head + "{scm_sec=1, scm_nsec=200000000}}]}, MSG_ERRQUEUE) = 0"));
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_EQ(a->want_control.size(), 1u);
  EXPECT_TRUE(a->want_control[0].tstamp);
  EXPECT_FALSE(a->want_control[0].any);
  EXPECT_EQ(a->control_len, 64u);  // CMSG_SPACE(3 x 16)
  Cmsg got = a->want_control[0];
  got.ts_ns = 1'203'000'000;
  EXPECT_EQ(CompareRecvmsg(*a, 0x2000, {got}, 4'000'000), "");
  EXPECT_THAT(CompareRecvmsg(*a, 0x2000, {got}, 2'000'000), HasSubstr("scm_nsec=203000000"));
  a = ParseRecvmsgArgs(Call(head + "{scm_sec=0, scm_nsec=0}}]}, MSG_ERRQUEUE) = 0"));
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(CompareRecvmsg(*a, 0x2000, {got}), "");
  EXPECT_TRUE(absl::IsInvalidArgument(
      ParseRecvmsgArgs(Call(head + "{scm_sec=0, scm_nsec=1000000000}}]}, MSG_ERRQUEUE) = 0")).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(ParseRecvmsgArgs(Call(head + "7}]}, MSG_ERRQUEUE) = 0")).status()));
}

TEST(RecvmsgArgsTest, BadInputIsInvalidUnknownIsUnimplemented) {
  EXPECT_TRUE(absl::IsInvalidArgument(ParseRecvmsgArgs(Call("readv(4, [{..., 10}], 3) = 10")).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      ParseRecvmsgArgs(Call("recvmsg(4, {msg_iov(1)=[{..., 1}], msg_control=[7]}, 0) = 1")).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(ParseRecvmsgArgs(Call("recvmsg(4, {msg_flags=0}, 0) = 1")).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(
      ParseRecvmsgArgs(Call("recvmsg(4, {msg_iov(1)=[{..., -1}]}, 0) = 1")).status()));
  EXPECT_TRUE(absl::IsUnimplemented(ParseRecvmsgArgs(Call("recvmsg(4, {msg_iov(1)=[{..., 1}], msg_control=["
                                                          "{cmsg_level=SOL_SOCKET, cmsg_type=1, cmsg_data=0}]}, 0) = 1"))
                                        .status()));
}

TEST(RecvmsgArgsTest, PutCmsgTruncates) {
  Cmsg inq;
  inq.level = kSolTcp;
  inq.type = kTcpCmInq;
  inq.value = 5;
  int64_t flags = 0;
  // No buffer: dropped, MSG_CTRUNC (put_cmsg).
  EXPECT_TRUE(PutCmsgs({inq}, 0, &flags).empty());
  EXPECT_EQ(flags, kMsgCtrunc);
  // CMSG_LEN(4) = 20 fits in 20; two need CMSG_SPACE(4) + CMSG_LEN(4) = 44.
  flags = 0;
  EXPECT_EQ(PutCmsgs({inq}, 20, &flags).size(), 1u);
  EXPECT_EQ(flags, 0);
  EXPECT_EQ(PutCmsgs({inq, inq}, 43, &flags).size(), 1u);
  EXPECT_EQ(flags, kMsgCtrunc);
}

TEST(RecvmsgArgsTest, CompareNamesWhatDiffers) {
  absl::StatusOr<RecvmsgArgs> a = ParseRecvmsgArgs(Call(
      "recvmsg(4, {msg_iov(1)=[{..., 1}], msg_flags=0, msg_control=[{cmsg_level=SOL_TCP, cmsg_type=TCP_CM_INQ, "
      "cmsg_data=3}]}, 0) = 1"));
  ASSERT_TRUE(a.ok());
  Cmsg got;
  got.level = kSolTcp;
  got.type = kTcpCmInq;
  got.value = 3;
  EXPECT_EQ(CompareRecvmsg(*a, 0, {got}), "");
  EXPECT_THAT(CompareRecvmsg(*a, 8, {got}), HasSubstr("msg_flags 0x8, expected 0x0"));
  got.value = 4;
  EXPECT_THAT(CompareRecvmsg(*a, 0, {got}), HasSubstr("data 4}], expected [{level 6, type 36, data 3}]"));
  EXPECT_THAT(CompareRecvmsg(*a, 0, {}), HasSubstr("msg_control [], expected"));
}

}  // namespace
}  // namespace sendsim::packetdrill
