#pragma once

#include "base/QueueThread.h"
#include "keyspace/Keyspace.h"

#include <QString>

#include <memory>

namespace keylens::lint {
class Linter;
} // namespace keylens::lint

namespace keylens::scan {
class Ingest;
} // namespace keylens::scan

namespace keylens::models {

class KeyTreeModel;
class PatternTreeModel;

// The store a ScanSession shows and what is tied to it, shared with the session's parts (EndOfScan, SnapshotKeeper,
// StoreChanges) on the GUI thread. The session replaces the keys, their ingest and their linter when a scan starts
// (the linter alone for a new lint profile), so a part reads them here each time and keeps none of them.
struct SessionStore
{
    std::unique_ptr<keyspace::Keyspace> keys;
    std::unique_ptr<scan::Ingest> ingest; // the one path into `keys`: the scan's batches and every change after it
    std::unique_ptr<lint::Linter> linter; // over `keys`
    KeyTreeModel* model = nullptr;        // the session's models over `keys`
    PatternTreeModel* patternModel = nullptr;
    // What a finished scan leaves (a store, its linter, a judgement) is freed there, at background priority (on the
    // GUI thread it was a stall; at equal priority the thread took turns with the GUI thread on its core); waited for
    // when the session goes.
    base::QueueThread lettingGo{QStringLiteral("keylens let go"), base::Priority::Background};
};

} // namespace keylens::models
