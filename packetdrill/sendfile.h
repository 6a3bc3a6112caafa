#ifndef SENDSIM_PACKETDRILL_SENDFILE_H_
#define SENDSIM_PACKETDRILL_SENDFILE_H_

// sendfile() as the kernel issues it to a TCP socket through splice: the
// file's pages go in pipe-sized chunks of 16 pages. <= v6.4: one
// do_tcp_sendpages call per page, MSG_SENDPAGE_NOTLAST|MSG_MORE on all but
// the chunk's last page and MSG_MORE on that one when more chunks follow
// (pipe_to_sendpage). v6.5+: one MSG_SPLICE_PAGES sendmsg per chunk,
// MSG_MORE when more chunks follow (splice_to_socket). Calls run one after
// another; a blocking one resumes the chain from its completion.

#include <cstdint>

#include "model/socket.h"

namespace sendsim::packetdrill {

// Sends bytes [pos, end) of the file whose pages are `file_id` + page
// index + 1, with `base_flags` (MSG_DONTWAIT) on every call, through
// sendpage (`sendpage`) or MSG_SPLICE_PAGES. Returns the bytes sent or the
// first call's -errno, or kInProgress and reports either through `done`.
int64_t SendFile(model::Socket& sock, bool sendpage, uint64_t file_id, uint64_t pos, uint64_t end, int base_flags,
                 model::Socket::DoneFn done);

}  // namespace sendsim::packetdrill

#endif  // SENDSIM_PACKETDRILL_SENDFILE_H_
