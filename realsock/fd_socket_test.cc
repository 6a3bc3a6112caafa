#include "realsock/fd_socket.h"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "model/constants.h"
#include "realsock/testing/loopback.h"

namespace sendsim::realsock {
namespace {

using model::kMsgEor;
using model::kMsgMore;
using model::kMsgSendpageNotlast;
using model::kMsgSplicePages;

// Page i holds bytes (i * 7 + j) & 0xff: a lost, doubled or reordered byte
// shows up in the received stream.
std::vector<uint8_t> Pages(int n) {
  std::vector<uint8_t> v(static_cast<size_t>(n) * 4096);
  for (size_t j = 0; j < v.size(); ++j) v[j] = static_cast<uint8_t>((j / 4096) * 7 + j);
  return v;
}

std::vector<uint8_t> ReadExactly(int fd, size_t n) {
  std::vector<uint8_t> out(n);
  size_t got = 0;
  while (got < n) {
    const ssize_t r = recv(fd, out.data() + got, n - got, 0);
    if (r <= 0) break;
    got += static_cast<size_t>(r);
  }
  out.resize(got);
  return out;
}

class FdSocketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto [s, r] = testing::LoopbackPair();
    if (s < 0) GTEST_SKIP() << "no loopback TCP here";
    auto sock = FdSocket::Create(s);
    ASSERT_TRUE(sock.ok()) << sock.status();
    sock_ = *std::move(sock);
    peer_ = r;
  }
  void TearDown() override {
    if (peer_ >= 0) close(peer_);
  }
  // A new pair whose sender has a 32 KiB send buffer.
  void ReconnectWithSmallSndbuf() {
    auto [s, r] = testing::LoopbackPair(/*sndbuf=*/32768);
    ASSERT_GE(s, 0);
    auto created = FdSocket::Create(s);
    ASSERT_TRUE(created.ok());
    sock_ = *std::move(created);
    close(peer_);
    peer_ = r;
  }
  model::Page PageOf(const std::vector<uint8_t>& data, int i) { return {static_cast<uint64_t>(i), data.data() + i * 4096}; }

  std::unique_ptr<FdSocket> sock_;
  int peer_ = -1;
};

TEST_F(FdSocketTest, NotlastPagesWaitForTheLastAndGoInOneSplice) {
  const std::vector<uint8_t> data = Pages(3);
  EXPECT_EQ(sock_->sendpage(PageOf(data, 0), 0, 4096, kMsgMore | kMsgSendpageNotlast, nullptr), 4096);
  EXPECT_EQ(sock_->sendpage(PageOf(data, 1), 0, 4096, kMsgMore | kMsgSendpageNotlast, nullptr), 4096);
  EXPECT_EQ(sock_->stats().splice_calls, 0u);  // batched in the pipe
  EXPECT_EQ(sock_->sendpage(PageOf(data, 2), 0, 4096, kMsgMore, nullptr), 4096);
  EXPECT_EQ(sock_->stats().splice_calls, 1u);
  EXPECT_EQ(sock_->stats().spliced_buffers, 3u);
  EXPECT_EQ(sock_->stats().notlast_buffers, 2u);  // pipe_to_sendpage: all but the last buffer
  EXPECT_EQ(ReadExactly(peer_, data.size()), data);
}

TEST_F(FdSocketTest, PagesWithoutNotlastAreOneSpliceEach) {
  const std::vector<uint8_t> data = Pages(3);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(sock_->sendpage(PageOf(data, i), 0, 4096, kMsgMore, nullptr), 4096);
  EXPECT_EQ(sock_->stats().splice_calls, 3u);
  EXPECT_EQ(sock_->stats().notlast_buffers, 0u);
  EXPECT_EQ(ReadExactly(peer_, data.size()), data);
}

TEST_F(FdSocketTest, PiecesOfPagesKeepTheirOffsets) {
  const std::vector<uint8_t> data = Pages(2);
  EXPECT_EQ(sock_->sendpage(PageOf(data, 0), 100, 3996, kMsgMore | kMsgSendpageNotlast, nullptr), 3996);
  EXPECT_EQ(sock_->sendpage(PageOf(data, 1), 0, 10, 0, nullptr), 10);
  std::vector<uint8_t> want(data.begin() + 100, data.begin() + 4096 + 10);
  EXPECT_EQ(ReadExactly(peer_, want.size()), want);
}

TEST_F(FdSocketTest, SendmsgAndBvecCarryTheirBytes) {
  const std::vector<uint8_t> data = Pages(2);
  const model::Iovec iov[2] = {{data.data(), 10}, {data.data() + 10, 20}};
  EXPECT_EQ(sock_->sendmsg(iov, kMsgMore, nullptr), 30);
  const model::BioVec spliced{PageOf(data, 1), 0, 4096};
  EXPECT_EQ(sock_->sendmsg_bvec({&spliced, 1}, kMsgMore | kMsgSplicePages, nullptr), 4096);
  const model::BioVec eor{PageOf(data, 0), 30, 50};
  EXPECT_EQ(sock_->sendmsg_bvec({&eor, 1}, kMsgEor | kMsgSplicePages, nullptr), 50);
  EXPECT_EQ(sock_->stats().eor_copies, 1u);  // splice cannot carry MSG_EOR
  std::vector<uint8_t> want(data.begin(), data.begin() + 30);
  want.insert(want.end(), data.begin() + 4096, data.end());
  want.insert(want.end(), data.begin() + 30, data.begin() + 80);
  EXPECT_EQ(ReadExactly(peer_, want.size()), want);
}

TEST_F(FdSocketTest, CorkIsTheKernelsOption) {
  EXPECT_EQ(sock_->setsockopt(model::SockOpt::kTcpCork, 1), 0);
  EXPECT_EQ(sock_->setsockopt(model::SockOpt::kTcpCork, 0), 0);
  EXPECT_EQ(sock_->setsockopt(model::SockOpt::kTcpMaxseg, -5), -EINVAL);
}

// A NOTLAST batch that meets a full socket when the page ending it is
// spliced: the pages were reported as sent, so the call waits (here: the
// block hook makes room by raising SO_SNDBUF) and splices the batch's rest
// and that page together. Under libceph the kernel would have seen NOTLAST
// on every page but that one; splicing the rest alone and refusing the page
// would add a push (last buffer of a splice) the kernel never makes there.
TEST_F(FdSocketTest, StuckBatchGoesOutWithThePageThatEndsIt) {
  const int pages = 64;  // 256 KiB: more than a 32 KiB send buffer and an unread receiver take
  ASSERT_NO_FATAL_FAILURE(ReconnectWithSmallSndbuf());
  int hook_calls = 0;
  sock_->set_block_hook([&] {
    ++hook_calls;
    // 400,000 is under twice the default net.core.wmem_max, and more than
    // what is queued plus the batch's rest plus the page.
    const int big = 400000;
    setsockopt(sock_->fd(), SOL_SOCKET, SO_SNDBUF, &big, sizeof(big));
    return absl::OkStatus();
  });
  const std::vector<uint8_t> data = Pages(pages + 1);
  for (int i = 0; i < pages; ++i) {
    ASSERT_EQ(sock_->sendpage(PageOf(data, i), 0, 4096, kMsgMore | kMsgSendpageNotlast, nullptr), 4096);
  }
  // The page that ends the batch goes whole, in the call that met the full
  // socket: no -EAGAIN, so no wait for the writer's next wake.
  EXPECT_EQ(sock_->sendpage(PageOf(data, pages), 0, 4096, kMsgMore, nullptr), 4096);
  EXPECT_GE(hook_calls, 1);
  EXPECT_EQ(sock_->stats().batch_waits, 1u);
  EXPECT_EQ(sock_->stats().eagains, 0u);
  EXPECT_EQ(sock_->stats().spliced_buffers, static_cast<uint64_t>(pages + 1));
  EXPECT_EQ(sock_->stats().notlast_buffers, static_cast<uint64_t>(pages));
  EXPECT_TRUE(ReadExactly(peer_, data.size()) == data);
  EXPECT_TRUE(sock_->error().ok()) << sock_->error();
}

// A writer that resumes after short sends and -EAGAIN as libceph does
// (same piece, offset advanced) delivers every byte exactly once, NOTLAST
// batches that meet a full socket included.
TEST_F(FdSocketTest, ShortSendsAndEagainLoseNothing) {
  const int pages = 256;  // 1 MiB: more than a 32 KiB send buffer takes without a reader
  ASSERT_NO_FATAL_FAILURE(ReconnectWithSmallSndbuf());
  const std::vector<uint8_t> data = Pages(pages);
  std::vector<uint8_t> got;
  std::thread reader([&] {
    usleep(20000);  // let the writer fill the socket first
    got = ReadExactly(peer_, data.size());
  });
  int write_space = 0;
  sock_->set_write_space_callback([&] { ++write_space; });
  for (int i = 0; i < pages; ++i) {
    uint32_t off = 0;
    // Batches of 8 pages: NOTLAST on all but the 8th.
    const int flags = (i % 8 == 7) ? kMsgMore : (kMsgMore | kMsgSendpageNotlast);
    while (off < 4096) {
      const int64_t r = sock_->sendpage(PageOf(data, i), off, 4096 - off, flags, nullptr);
      if (r == -model::kEagain) {
        ASSERT_TRUE(sock_->wants_write_space());
        struct pollfd p = {sock_->fd(), POLLOUT, 0};
        poll(&p, 1, 5000);
        sock_->FireWriteSpace();
        continue;
      }
      ASSERT_GT(r, 0);
      off += static_cast<uint32_t>(r);
    }
  }
  reader.join();
  EXPECT_GT(sock_->stats().eagains, 0u);
  EXPECT_EQ(write_space, static_cast<int>(sock_->stats().eagains));
  EXPECT_TRUE(got == data) << "received " << got.size() << " of " << data.size() << " bytes, or different ones";
  EXPECT_TRUE(sock_->error().ok()) << sock_->error();
}

}  // namespace
}  // namespace sendsim::realsock
