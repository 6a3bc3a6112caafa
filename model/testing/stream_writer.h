#ifndef SENDSIM_MODEL_TESTING_STREAM_WRITER_H_
#define SENDSIM_MODEL_TESTING_STREAM_WRITER_H_

// A minimal libceph-shaped writer for tests and benchmarks: messages of
// prefix (sendmsg, MSG_MORE) + N pages (sendpage) + footer (sendmsg, MSG_EOR),
// all MSG_DONTWAIT, resuming on the write-space callback after a short count
// or -EAGAIN. Calls are `gap_ns` apart (the caller's CPU time per call).
// Not the messenger port: just enough to drive a Connection.

#include <cstdint>
#include <vector>

#include "model/event_loop.h"
#include "model/socket.h"

namespace sendsim::model::testing {

struct MessageShape {
  uint32_t prefix = 0;   // 0: no prefix call
  uint32_t pages = 32;
  uint32_t footer = 0;   // 0: no footer call
  bool notlast = true;   // post-patch flags (MORE|NOTLAST on all but the last page)
};

class StreamWriter {
 public:
  StreamWriter(EventLoop* loop, Socket* sock, MessageShape shape, uint64_t messages, TimeNs gap_ns);
  StreamWriter(const StreamWriter&) = delete;
  StreamWriter& operator=(const StreamWriter&) = delete;

  void Start();
  bool done() const { return msg_ >= messages_; }
  uint64_t bytes_written() const { return bytes_; }
  uint64_t calls() const { return calls_; }

 private:
  void Step();
  void OnWriteSpace();
  uint32_t PieceLen(uint32_t piece) const;

  EventLoop* loop_;
  Socket* sock_;
  MessageShape shape_;
  uint64_t messages_;
  TimeNs gap_ns_;
  uint64_t msg_ = 0;
  uint32_t piece_ = 0;   // 0 prefix, 1..pages, pages+1 footer
  uint32_t offset_ = 0;  // bytes of the current piece already accepted
  uint64_t bytes_ = 0;
  uint64_t calls_ = 0;
  bool waiting_ = false;
  bool in_call_ = false;
  bool space_during_call_ = false;
  std::vector<uint8_t> zeros_ = std::vector<uint8_t>(65536, 0);
};

}  // namespace sendsim::model::testing

#endif  // SENDSIM_MODEL_TESTING_STREAM_WRITER_H_
