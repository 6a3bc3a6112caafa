#include "packetdrill/sendfile.h"

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "model/constants.h"

namespace sendsim::packetdrill {
namespace {

struct Call {
  std::vector<model::BioVec> pages;
  int flags = 0;
  uint64_t want = 0;
};

// The pages of [pos, chunk_end), one BioVec per page.
std::vector<model::BioVec> ChunkPages(uint64_t pos, uint64_t chunk_end, uint64_t file_id) {
  constexpr uint64_t kPage = model::kPageSize;
  std::vector<model::BioVec> pages;
  for (uint64_t p = pos; p < chunk_end;) {
    const uint64_t page_end = std::min(chunk_end, (p / kPage + 1) * kPage);
    model::BioVec b;
    b.page.id = file_id + p / kPage + 1;
    b.offset = static_cast<uint32_t>(p % kPage);
    b.len = static_cast<uint32_t>(page_end - p);
    pages.push_back(b);
    p = page_end;
  }
  return pages;
}

std::vector<Call> Plan(uint64_t pos, uint64_t end, uint64_t file_id, bool sendpage, int base) {
  constexpr uint64_t kPage = model::kPageSize;
  constexpr uint64_t kChunkPages = 16;
  std::vector<Call> out;
  while (pos < end) {
    const uint64_t chunk_end = std::min(end, (pos / kPage + kChunkPages) * kPage);
    const int more_chunks = chunk_end < end ? model::kMsgMore : 0;
    std::vector<model::BioVec> pages = ChunkPages(pos, chunk_end, file_id);
    if (sendpage) {
      for (size_t i = 0; i < pages.size(); ++i) {
        const bool last = i + 1 == pages.size();
        Call c;
        c.pages = {pages[i]};
        c.flags = base | more_chunks | (last ? 0 : (model::kMsgSendpageNotlast | model::kMsgMore));
        c.want = pages[i].len;
        out.push_back(std::move(c));
      }
    } else {
      Call c;
      c.pages = std::move(pages);
      c.flags = base | model::kMsgSplicePages | more_chunks;
      c.want = chunk_end - pos;
      out.push_back(std::move(c));
    }
    pos = chunk_end;
  }
  return out;
}

struct Chain {
  model::Socket* sock = nullptr;
  bool sendpage = false;
  std::vector<Call> calls;
  size_t idx = 0;
  int64_t copied = 0;
  model::Socket::DoneFn done;
};

// Adds the result of calls[idx]; false when the chain must stop.
bool Account(Chain& c, int64_t r) {
  const uint64_t want = c.calls[c.idx].want;
  ++c.idx;
  if (r < 0) {
    if (c.copied == 0) c.copied = r;
    return false;
  }
  c.copied += r;
  return static_cast<uint64_t>(r) == want;
}

// Issues calls until one blocks (kInProgress; its completion resumes the
// chain and finally reports through `done`) or all are done (the total).
int64_t Next(const std::shared_ptr<Chain>& self) {
  Chain& c = *self;
  while (c.idx < c.calls.size()) {
    const Call& call = c.calls[c.idx];
    auto resume = [self](int64_t r) {
      if (Account(*self, r)) {
        if (Next(self) == model::Socket::kInProgress) return;
      }
      if (self->done) self->done(self->copied);
    };
    int64_t r = c.sendpage
                    ? c.sock->sendpage(call.pages[0].page, call.pages[0].offset, call.pages[0].len, call.flags, resume)
                    : c.sock->sendmsg_bvec(absl::MakeConstSpan(call.pages), call.flags, resume);
    if (r == model::Socket::kInProgress) return model::Socket::kInProgress;
    if (!Account(c, r)) break;
  }
  return c.copied;
}

}  // namespace

int64_t SendFile(model::Socket& sock, bool sendpage, uint64_t file_id, uint64_t pos, uint64_t end, int base_flags,
                 model::Socket::DoneFn done) {
  auto chain = std::make_shared<Chain>();
  chain->sock = &sock;
  chain->sendpage = sendpage;
  chain->calls = Plan(pos, end, file_id, sendpage, base_flags);
  chain->done = std::move(done);
  return Next(chain);
}

}  // namespace sendsim::packetdrill
