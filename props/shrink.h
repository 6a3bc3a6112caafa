#ifndef SENDSIM_PROPS_SHRINK_H_
#define SENDSIM_PROPS_SHRINK_H_

// Greedy shrinking of a RapidCheck Shrinkable outside RC_GTEST_PROP (the
// explorer finds failures with its own seeds and shrinks them the same way
// RapidCheck would: take the first shrink that still fails, repeat).

#include <cstdint>
#include <functional>

#include "rapidcheck.h"

namespace sendsim::props {

template <typename T>
T ShrinkGreedy(rc::Shrinkable<T> s, const std::function<bool(const T&)>& still_fails, int max_tries,
               int* tries_used = nullptr) {
  int tries = 0;
  bool progressed = true;
  while (progressed && tries < max_tries) {
    progressed = false;
    rc::Seq<rc::Shrinkable<T>> seq = s.shrinks();
    while (rc::Maybe<rc::Shrinkable<T>> next = seq.next()) {
      if (++tries > max_tries) break;
      if (still_fails((*next).value())) {
        s = *next;
        progressed = true;
        break;
      }
    }
  }
  if (tries_used != nullptr) *tries_used = tries;
  return s.value();
}

}  // namespace sendsim::props

#endif  // SENDSIM_PROPS_SHRINK_H_
