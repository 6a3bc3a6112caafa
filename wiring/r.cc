#include "gtest/gtest.h"
#include "rapidcheck/gtest.h"
RC_GTEST_PROP(A, Rev, (std::vector<int> v)) { auto w = v; std::reverse(w.begin(), w.end()); std::reverse(w.begin(), w.end()); RC_ASSERT(w == v); }
