#ifndef SENDSIM_MESSENGER_MESSAGE_H_
#define SENDSIM_MESSENGER_MESSAGE_H_

// struct ceph_msg (include/linux/ceph/messenger.h, v4.19/v4.20).

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "messenger/cursor.h"
#include "messenger/msg_data.h"
#include "messenger/wire_v1.h"

namespace sendsim::messenger {

struct CephMsg {
  CephMsgHeader hdr;
  CephMsgFooter footer;
  std::vector<uint8_t> front;                  // msg->front (kvec)
  std::optional<std::vector<uint8_t>> middle;  // msg->middle (ceph_buffer), usually absent
  std::vector<CephMsgData> data;               // data items in order (array since v4.20)
  uint64_t data_length = 0;                    // sum of item lengths
  CephMsgDataCursor cursor;
  bool more_to_follow = false;  // set only by the MDS client; false for OSD requests
  bool needs_out_seq = true;    // ceph_con_send sets it; prepare_write_message assigns the seq
  // Not kernel state: the workload's id for call tags and records.
  uint64_t index = 0;
};

// Messages are reference counted (ceph_msg_get/put): the connection's
// out_queue/out_sent lists and the caller share them.
using CephMsgRef = std::shared_ptr<CephMsg>;

// ceph_msg_new: header lengths follow the buffers.
CephMsgRef ceph_msg_new(uint16_t type, std::vector<uint8_t> front);
void SetMiddle(CephMsg* msg, std::vector<uint8_t> middle);

// ceph_msg_data_add_{pages,pagelist,bio,bvecs}: validate, append, bump
// data_length and hdr.data_len.
absl::Status ceph_msg_data_add_item(CephMsg* msg, CephMsgData item);

// Flattens the data payload (pages must carry data). For tests/decoders.
std::vector<uint8_t> FlattenData(const CephMsg& msg);

}  // namespace sendsim::messenger

#endif  // SENDSIM_MESSENGER_MESSAGE_H_
