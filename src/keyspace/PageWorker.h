#pragma once

// Private to the keyspace library and the arrays that use PagedArray.h: not installed.

#include <functional>

namespace keylens::keyspace::detail {

// Runs `job` on a thread of its own, after the jobs posted before it. For work that only makes fresh memory ready
// (PagedArray's next page): on this machine's virtual memory the kernel takes 45 us to clear a page on first
// touch, so the ten node arrays of a store, crossing a page of 65,536 entries at once, held the ingesting GUI
// thread for 25-35 ms of CPU every 65,536 nodes. The thread lives as long as the process.
void runOnPageWorker(std::function<void()> job);

} // namespace keylens::keyspace::detail
