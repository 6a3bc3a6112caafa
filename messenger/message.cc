#include "messenger/message.h"

#include <cstring>

#include "absl/strings/str_format.h"

namespace sendsim::messenger {

CephMsgRef ceph_msg_new(uint16_t type, std::vector<uint8_t> front) {
  auto m = std::make_shared<CephMsg>();
  m->hdr.type = type;
  m->hdr.front_len = static_cast<uint32_t>(front.size());
  m->front = std::move(front);
  return m;
}

void SetMiddle(CephMsg* msg, std::vector<uint8_t> middle) {
  msg->hdr.middle_len = static_cast<uint32_t>(middle.size());
  msg->middle = std::move(middle);
}

absl::Status ceph_msg_data_add_item(CephMsg* msg, CephMsgData item) {
  if (absl::Status s = ValidateDataItem(item); !s.ok()) return s;
  if (msg->data_length + item.length > UINT32_MAX) {
    return absl::InvalidArgumentError(absl::StrFormat("message data length %u overflows le32 data_len",
                                                      msg->data_length + item.length));
  }
  msg->data_length += item.length;
  msg->hdr.data_len = static_cast<uint32_t>(msg->data_length);
  msg->data.push_back(std::move(item));
  return absl::OkStatus();
}

std::vector<uint8_t> FlattenData(const CephMsg& msg) {
  std::vector<uint8_t> out;
  out.reserve(msg.data_length);
  if (msg.data.empty()) return out;
  CephMsgDataCursor c;
  ceph_msg_data_cursor_init(&c, &msg.data, msg.data_length);
  while (c.total_resid > 0) {
    if (c.resid == 0) {
      ceph_msg_data_advance(&c, 0);
      continue;
    }
    const DataPiece p = ceph_msg_data_next(c);
    const uint8_t* src = p.page.page.data;
    if (src == nullptr) {
      out.insert(out.end(), p.length, 0);
    } else {
      out.insert(out.end(), src + p.page_offset, src + p.page_offset + p.length);
    }
    ceph_msg_data_advance(&c, p.length);
  }
  return out;
}

}  // namespace sendsim::messenger
