#pragma once

#include "keyspace/KeyFilter.h"

#include <QByteArrayView>
#include <QStringList>

namespace keylens::models {

class KeyspaceView;

// What the filter bar asks of the session's store.

// The filter a typed text stands for (keyspace::resolveFilter): in auto mode a text that names a key goes to it.
keyspace::KeyFilter resolveFilter(const KeyspaceView& keyspace, QByteArrayView text, keyspace::FilterMode wanted,
                                  keyspace::KeyGlob::Case sensitivity);

// Completions of a typed text, segment by segment: the children of the namespace typed so far whose names start with
// the last, unfinished segment, at most `most` of them, sorted. A namespace ends with the delimiter its children
// follow, so picking it goes on to them.
QStringList keyCompletions(const KeyspaceView& keyspace, QByteArrayView typed, int most);

} // namespace keylens::models
