#include "keyspace/PageWorker.h"

#include "base/QueueWorker.h"

namespace keylens::keyspace::detail {

void runOnPageWorker(std::function<void()> job, PageLane lane)
{
    // Never destroyed: an array may post its next page while statics are destroyed at exit.
    static base::QueueWorker* const pages = new base::QueueWorker;
    static base::QueueWorker* const bigBuffers = new base::QueueWorker;
    (lane == PageLane::Pages ? pages : bigBuffers)->post(std::move(job));
}

} // namespace keylens::keyspace::detail
