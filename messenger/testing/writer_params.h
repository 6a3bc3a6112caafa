#ifndef SENDSIM_MESSENGER_TESTING_WRITER_PARAMS_H_
#define SENDSIM_MESSENGER_TESTING_WRITER_PARAMS_H_

// Parameterized tests over every writer a user can select (the writer
// table's selectable entries), named after the writer.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "messenger/writer_policy.h"

namespace sendsim::messenger::testing {

inline std::vector<WriterKind> SelectableWriters() {
  std::vector<WriterKind> out;
  for (const WriterEntry& e : kWriterTable) {
    if (e.selectable) out.push_back(e.kind);
  }
  return out;
}

// "v1-notlast" -> "v1_notlast" (test names take no '-').
struct WriterParamName {
  std::string operator()(const ::testing::TestParamInfo<WriterKind>& info) const {
    std::string n(WriterKindName(info.param));
    for (char& c : n) c = c == '-' ? '_' : c;
    return n;
  }
};

}  // namespace sendsim::messenger::testing

#endif  // SENDSIM_MESSENGER_TESTING_WRITER_PARAMS_H_
