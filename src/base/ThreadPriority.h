#pragma once

#include <QString>

namespace keylens::base {

// Lowers the calling thread's CPU priority for good (an unprivileged thread cannot raise it again), for work in the
// GUI that nobody waits on frame by frame: the scan's reading, judging the namespaces, building the exact pattern
// tree, freeing the last scan. On a machine with two cores, these threads, the GUI thread and a local server all
// want a core; at equal priority the scheduler shared the GUI thread's core with them, and a 20 ms slice of ingest
// became a 40-70 ms stall. At nice 10 (a tenth of the weight), they take what the GUI thread leaves.
void runAtBackgroundPriority();

// What a thread of src/base runs at, for its whole life: Background is runAtBackgroundPriority() from its start.
enum class Priority { Normal, Background };

// Names the calling thread (what top -H, a debugger and /proc/<pid>/task/<tid>/comm show: its first 15 bytes) and
// sets its priority; what each thread a src/base primitive starts does first.
void setUpThisThread(const QString& name, Priority priority);

} // namespace keylens::base
